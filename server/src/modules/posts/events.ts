/** The map events of posts, scoped by the hub to the views holding them and not to their author's blocked pairs. */
import type { PostCreatedEvent, PostDeletedEvent } from '@moodmap/core';
import type { RealtimeEvent } from '../../adapters/bus/types.ts';
import type { DeletedPost } from './data.ts';
import type { CreatedPost } from './service.ts';

/** A deleted or expired post: its id and place. */
export function deletedEvent(
  post: DeletedPost,
): PostDeletedEvent & { at: { latitude: number; longitude: number }; about: string[] } {
  const { id, latitude, longitude } = post;
  return { type: 'post.deleted', data: { id, latitude, longitude }, at: { latitude, longitude }, about: [post.userId] };
}

/** A new post: its marker. */
export function createdEvent(marker: CreatedPost['marker'], authorId: string): RealtimeEvent {
  const event: PostCreatedEvent = { type: 'post.created', data: { post: marker } };
  return { ...event, at: { latitude: marker.latitude, longitude: marker.longitude }, about: [authorId] };
}
