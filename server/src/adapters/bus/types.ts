/**
 * The event bus carries realtime events between server instances (docs/architecture.md, The event bus). An event is
 * small: ids and the few fields a screen needs; clients refetch anything larger.
 */
/** A post's place, where a map event happened. */
export interface PostPlace {
  latitude: number;
  longitude: number;
}

export interface RealtimeEvent {
  type: string;
  data: unknown;
  /** User ids the event is for (private events such as messages); absent = every socket. */
  targets?: string[];
  /**
   * Where a map event happened (a post's place): the hub sends it only to sockets whose view
   * (core's realtime `view` frame) contains this point. Absent: not a map event.
   */
  at?: PostPlace;
  /**
   * The people an event tells of (a post's author, a commenter, a message's sender): the hub
   * skips the sockets of anyone who blocked them or whom they blocked (blocks/rule.ts). Never
   * sent to browsers.
   */
  about?: string[];
  /**
   * Further frames for the same recipients, sent right after this one: what one write tells in
   * several frames travels as one event (a message send: one NOTIFY, not one per frame).
   */
  more?: Array<{ type: string; data: unknown }>;
  /**
   * A socket to leave out (its id, realtime/clients.ts): the one whose request made the event,
   * which has the same news in its answer. Never sent to browsers.
   */
  except?: string;
}

/**
 * Delivered by a bus to its own instance's handlers only, when it listens again after losing its
 * link: events published meanwhile were missed, so whoever caches what events invalidate (the
 * session cache, sessions.ts) starts afresh. Never sent to browsers.
 */
export const BUS_RESUMED = 'bus.resumed';

export interface EventBus {
  publish(event: RealtimeEvent): Promise<void>;
  /**
   * Publishes several events in order, as few notifications as their size allows (a batch of
   * message sends: one NOTIFY for the batch, not one per message). Each event is
   * still handled, and observed by `observeOwn`, on its own.
   */
  publishMany(events: RealtimeEvent[]): Promise<void>;
  /** Calls `handler` for every event published by any instance (this one included). */
  subscribe(handler: (event: RealtimeEvent) => void): () => void;
  /**
   * Calls `handler` for each event published by this instance only, synchronously inside
   * `publish`: for side effects that must happen once per event, not once per instance (a Web
   * Push). A handler that throws never fails the publish.
   */
  observeOwn(handler: (event: RealtimeEvent) => void): () => void;
  close(): Promise<void>;
}
