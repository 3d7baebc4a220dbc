/**
 * What crosses the wire between instances, the same on every engine: a payload is one event (a
 * JSON object) or, from `publishMany`, several in order (a JSON array). Every engine refuses an
 * event over PostgreSQL's NOTIFY limit (8000 bytes), so an event that works on one engine works
 * on all, and moving a deployment from one bus to another never changes which events pass.
 */
import { isRecord } from '@moodmap/core';
import type { PostPlace, RealtimeEvent } from './types.ts';

const MAX_PAYLOAD = 7900;

/**
 * A publish unanswered this long means a dead link: the publisher reports it lost (and replaces
 * its connection).
 */
export const PUBLISH_TIMEOUT_MS = 2000;

/**
 * A payload is taken only this long after its stamp: less than PUBLISH_TIMEOUT_MS, so that one
 * whose publisher gave up (its timer may fire a millisecond early, and clocks count whole
 * milliseconds) can never arrive in time, however soon after the give-up its link comes back.
 */
export const ARRIVAL_WINDOW_MS = PUBLISH_TIMEOUT_MS - 100;

export class EventTooLargeError extends Error {
  constructor(type: string) {
    super(`realtime event too large: ${type}`);
  }
}

/** One event's payload; throws EventTooLargeError over the limit. */
export function eventPayload(event: RealtimeEvent): string {
  const payload = JSON.stringify(event);
  if (Buffer.byteLength(payload) > MAX_PAYLOAD) throw new EventTooLargeError(event.type);
  return payload;
}

/**
 * Events packed in order into as few arrays under the limit as their size allows. An event too
 * large alone is left out and named in `tooLarge` (the first one), so the others still go.
 */
export function batchPayloads(events: RealtimeEvent[]): { payloads: string[]; tooLarge: string | null } {
  const payloads: string[] = [];
  let chunk: string[] = [];
  let bytes = 2;
  let tooLarge: string | null = null;
  for (const event of events) {
    const json = JSON.stringify(event);
    const size = Buffer.byteLength(json) + 1;
    if (size + 2 > MAX_PAYLOAD) {
      tooLarge ??= event.type;
      continue;
    }
    if (bytes + size > MAX_PAYLOAD) {
      payloads.push(`[${chunk.join(',')}]`);
      chunk = [];
      bytes = 2;
    }
    chunk.push(json);
    bytes += size;
  }
  if (chunk.length) payloads.push(`[${chunk.join(',')}]`);
  return { payloads, tooLarge };
}

const isStringArray = (value: unknown): value is string[] =>
  Array.isArray(value) && value.every((item) => typeof item === 'string');
const isPlace = (value: unknown): value is PostPlace =>
  isRecord(value) && typeof value.latitude === 'number' && typeof value.longitude === 'number';
const isFrames = (value: unknown): value is Array<{ type: string; data: unknown }> =>
  Array.isArray(value) && value.every((frame) => isRecord(frame) && typeof frame.type === 'string');

/** The shape every handler relies on, routing fields included; anything else on the wire is dropped. */
function toEvent(value: unknown): RealtimeEvent | null {
  if (!isRecord(value) || typeof value.type !== 'string') return null;
  const event: RealtimeEvent = { type: value.type, data: value.data };
  const { targets, about, at, more, except } = value;
  if (targets !== undefined) {
    if (!isStringArray(targets)) return null;
    event.targets = targets;
  }
  if (about !== undefined) {
    if (!isStringArray(about)) return null;
    event.about = about;
  }
  if (at !== undefined) {
    if (!isPlace(at)) return null;
    event.at = at;
  }
  if (more !== undefined) {
    if (!isFrames(more)) return null;
    event.more = more;
  }
  if (except !== undefined) {
    if (typeof except !== 'string') return null;
    event.except = except;
  }
  return event;
}

/** The events of one payload, in order; an unreadable payload yields none. */
export function parsePayload(payload: string): RealtimeEvent[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(payload);
  } catch {
    return [];
  }
  const events = Array.isArray(parsed) ? parsed.map(toEvent) : [toEvent(parsed)];
  return events.filter((event): event is RealtimeEvent => event !== null);
}

/**
 * Each payload carries when it was published (assemble.ts; the publisher's clock, so instances
 * must keep their clocks in step, as NTP does). One as old as ARRIVAL_WINDOW_MS on arrival is
 * dropped: its publisher has given up on it, or is about to, and says so, and a publish held by a cut link reaches
 * the server only when the link is back, after newer events (a conversation's messages out of
 * order).
 */
export const stamped = (payload: string, now: number) => `${now}|${payload}`;

/** The payload of a stamped message still in time, else null. */
export function unstamped(message: string, now: number): string | null {
  const bar = message.indexOf('|');
  const sentAt = bar > 0 ? Number(message.slice(0, bar)) : Number.NaN;
  if (!Number.isFinite(sentAt) || now - sentAt >= ARRIVAL_WINDOW_MS) return null;
  return message.slice(bar + 1);
}
