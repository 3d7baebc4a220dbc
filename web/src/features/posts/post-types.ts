/**
 * Posts as the API sends them, read with core's schemas (the ones the server declares on its
 * routes): one definition of the post, shared with the server. The schemas load on first use
 * (lib/schemas.ts), so zod stays off the first load.
 */
import type { MarkerDto, PostDto, PostsFeed } from '@moodmap/core';
import { readLazy } from '../../lib/schemas.ts';
import { readMarkerAnswer } from './viewport-answer.ts';

export type { MarkerDto, PostDto, PostsFeed };
export type PostAuthor = PostDto['author'];

/** One post pushed outside an API answer (a realtime event, a profile's posts), or null when it is not one. */
export function readPost(value: unknown): Promise<PostDto | null> {
  return readLazy((s) => s.postSchema, value);
}

/** The image a card shows first: the post's image, else its first media URL. */
export function firstImage(post: Pick<PostDto, 'imageUrl' | 'mediaUrls'>): string | null {
  return post.imageUrl ?? post.mediaUrls[0] ?? null;
}

/**
 * One marker pushed outside an API answer (a realtime event), or null when it is not one. Read
 * without zod, as the map's feed is (viewport-answer.ts); a promise still, as readPost's.
 */
export async function readMarker(value: unknown): Promise<MarkerDto | null> {
  return readMarkerAnswer(value);
}

/**
 * What the map draws of a post: a full card (our own create, a search result) is cut down to
 * its marker, so the marker lists never hold card fields that the card cache keeps current.
 */
export function toMarker(post: MarkerDto | PostDto): MarkerDto {
  const photoUrl = 'author' in post ? post.author.photoUrl : post.photoUrl;
  return {
    id: post.id,
    userId: post.userId,
    category: post.category,
    latitude: post.latitude,
    longitude: post.longitude,
    nickname: post.nickname,
    photoUrl,
    hasPulseEffect: post.hasPulseEffect,
    createdAt: post.createdAt,
  };
}
