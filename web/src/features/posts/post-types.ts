/**
 * A live post as the API sends it (`PostDto` of the posts module), read defensively: a field
 * of the wrong type becomes its empty value instead of breaking the map.
 */
import { type PostDto, isMood } from '@moodmap/core';

/** The post as the API returns it: one definition, in core, shared with the server. */
export type { PostDto };
export type PostAuthor = PostDto['author'];

/** The feed as cached under ['posts']. */
export interface PostsFeed {
  posts: PostDto[];
  serverTime: string;
}

type Raw = Record<string, unknown>;
const str = (v: unknown): string | null => (typeof v === 'string' && v.length > 0 ? v : null);
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const bool = (v: unknown): boolean => v === true;

/** One post from the API, or null when it cannot be placed on the map. */
export function readPost(value: unknown): PostDto | null {
  if (!value || typeof value !== 'object') return null;
  const p = value as Raw;
  const id = str(p.id);
  const latitude = num(p.latitude);
  const longitude = num(p.longitude);
  if (!id || latitude === null || longitude === null || !isMood(p.category)) return null;
  const a = (p.author && typeof p.author === 'object' ? p.author : {}) as Raw;
  const nickname = str(p.nickname) ?? str(a.username) ?? 'Utilisateur';
  const mediaUrls = Array.isArray(p.mediaUrls) ? p.mediaUrls.filter((u): u is string => typeof u === 'string' && u.length > 0) : [];
  return {
    id,
    userId: str(p.userId) ?? '',
    category: p.category,
    content: typeof p.content === 'string' ? p.content : '',
    isVoiceOnly: bool(p.isVoiceOnly),
    latitude,
    longitude,
    nickname,
    createdAt: str(p.createdAt) ?? new Date(0).toISOString(),
    imageUrl: str(p.imageUrl),
    thumbnailUrl: str(p.thumbnailUrl),
    mediaUrls,
    audioUrl: str(p.audioUrl),
    audioDuration: num(p.audioDuration),
    hasPulseEffect: bool(p.hasPulseEffect),
    commentsCount: Math.max(0, num(p.commentsCount) ?? 0),
    likesCount: Math.max(0, num(p.likesCount) ?? 0),
    isLikedByUser: bool(p.isLikedByUser),
    author: {
      username: str(a.username) ?? nickname,
      photoUrl: str(a.photoUrl),
      isPremium: bool(a.isPremium),
      isPro: bool(a.isPro),
      isPlus: bool(a.isPlus),
      isMulti: bool(a.isMulti),
    },
  };
}

/** The image a card shows first: the post's image, else its first media URL. */
export function firstImage(post: Pick<PostDto, 'imageUrl' | 'mediaUrls'>): string | null {
  return post.imageUrl ?? post.mediaUrls[0] ?? null;
}
