/**
 * The realtime socket's map contract: each tab tells the server what its map shows,
 * and the server sends it the post events inside that view only.
 *
 *   client → { "type": "view", "west", "south", "east", "north" }   (on open, then on move, debounced)
 *   server → { "type": "post.created", "data": { "post": MarkerDto } }
 *   server → { "type": "post.deleted", "data": { "id", "latitude", "longitude" } }
 *
 * Bounds are degrees, the padded bounds the map fetched its viewport with; longitudes may come
 * unwrapped from MapLibre (west −250, east 310) and are wrapped by the server; west > east after
 * wrapping is a view across the antimeridian. A socket that has sent no view gets no post event.
 * `post.liked` and `post.commented` (interactions.ts) are scoped the same way, by the post's place.
 */
import { z } from 'zod';
import { MESSAGE_EVENTS } from '../contract.ts';
import type { InteractionEvent } from './interactions.ts';
import { markerSchema } from './post.ts';
import type { ProfileUpdatedEvent } from './profile.ts';
import { MODERATION_NOTICE_EVENT } from './push.ts';
import { pointShape } from './shapes.ts';
export { REALTIME_VIEW_DEBOUNCE_MS, SOCKET_REF_MAX, SOCKET_REPLY, SOCKET_REQUESTS } from '../contract.ts';

const degrees = z.number().finite().min(-1080).max(1080);
const latitude = z.number().finite().min(-90).max(90);

export const realtimeViewSchema = z.object({
  type: z.literal('view'),
  west: degrees,
  south: latitude,
  east: degrees,
  north: latitude,
});
export type RealtimeView = z.infer<typeof realtimeViewSchema>;

export const postCreatedEventSchema = z.object({
  type: z.literal('post.created'),
  data: z.object({ post: markerSchema }),
});
export const postDeletedEventSchema = z.object({
  type: z.literal('post.deleted'),
  data: z.object({ id: z.string(), ...pointShape }),
});
export type PostCreatedEvent = z.infer<typeof postCreatedEventSchema>;
export type PostDeletedEvent = z.infer<typeof postDeletedEventSchema>;

/** The type of every event the server sends over the socket (besides its `ready` and `pong`). */
export type RealtimeEventType =
  | PostCreatedEvent['type']
  | PostDeletedEvent['type']
  | InteractionEvent['type']
  | ProfileUpdatedEvent['type']
  | (typeof MESSAGE_EVENTS)[keyof typeof MESSAGE_EVENTS]
  | typeof MODERATION_NOTICE_EVENT;

/** The same, as a list to walk (a test checks each blocking rule against every one). */
export const REALTIME_EVENT_TYPES = [
  'post.created',
  'post.deleted',
  'post.liked',
  'post.commented',
  'profile.updated',
  MESSAGE_EVENTS.created,
  MESSAGE_EVENTS.read,
  MESSAGE_EVENTS.conversationUpdated,
  MESSAGE_EVENTS.request,
  MESSAGE_EVENTS.closed,
  MODERATION_NOTICE_EVENT,
] as const satisfies readonly RealtimeEventType[];
