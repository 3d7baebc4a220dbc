/** Rows typed by the schema (data.ts) → the API's PostDto (the card) and MarkerDto (the map). */
import { VOICE_ONLY_TEXT, type MarkerDto, type PostDto } from '@moodmap/core';
import type { CardRow, MarkerRow } from './data.ts';

export function toPostDto({ post, author, isLikedByUser }: CardRow): PostDto {
  return {
    id: post.id,
    userId: post.userId,
    category: post.category,
    content: post.content,
    isVoiceOnly: Boolean(post.audioUrl) && !post.imageUrl && post.content === VOICE_ONLY_TEXT,
    latitude: post.latitude,
    longitude: post.longitude,
    nickname: post.nickname,
    createdAt: post.createdAt.toISOString(),
    imageUrl: post.imageUrl,
    thumbnailUrl: post.thumbnailUrl,
    mediaUrls: post.mediaUrls ?? [],
    audioUrl: post.audioUrl,
    audioDuration: post.audioDuration,
    hasPulseEffect: post.hasPulseEffect,
    commentsCount: post.commentsCount,
    likesCount: post.likesCount,
    isLikedByUser: Boolean(isLikedByUser),
    author,
    // Only whether the point is approximate; the exact one never leaves the server.
    approximate: post.exactLatitude !== null,
  };
}

export function toMarkerDto(row: MarkerRow): MarkerDto {
  return {
    id: row.id,
    userId: row.userId,
    category: row.category,
    latitude: row.latitude,
    longitude: row.longitude,
    nickname: row.nickname,
    photoUrl: row.authorPhotoUrl,
    hasPulseEffect: row.hasPulseEffect,
    createdAt: row.createdAt.toISOString(),
  };
}
