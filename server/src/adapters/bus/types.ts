/**
 * The event bus carries realtime events between server instances (design.md §5). An event is
 * small: ids and the few fields a screen needs; clients refetch anything larger.
 */
export interface RealtimeEvent {
  type: string;
  data: unknown;
  /** User ids the event is for (private events such as messages); absent = every socket. */
  targets?: string[];
}

export interface EventBus {
  publish(event: RealtimeEvent): Promise<void>;
  /** Calls `handler` for every event published by any instance (this one included). */
  subscribe(handler: (event: RealtimeEvent) => void): () => void;
  close(): Promise<void>;
}
