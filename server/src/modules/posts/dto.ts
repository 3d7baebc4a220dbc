/** Database rows of the feed query → the API's PostDto. */
import { VOICE_ONLY_TEXT, type PostDto } from '@moodmap/core';

/** Columns every post read selects (publications p joined with the author's profile a). */
export const POST_COLUMNS = `
  p.id, p.user_id, p.category, p.content, p.latitude, p.longitude, p.nickname, p.created_at,
  p.image_url, p.thumbnail_url, p.media_urls, p.audio_url, p.audio_duration, p.has_pulse_effect,
  p.comments_count, p.likes_count,
  a.username as author_username, a.profile_photo_url as author_photo_url,
  a.is_premium as author_is_premium, a.is_pro as author_is_pro, a.is_plus as author_is_plus, a.is_multi as author_is_multi`;

/** The author columns every joined read selects (posts here, comments in comments_with_profiles). */
export interface AuthorRow {
  author_username: string;
  author_photo_url: string | null;
  author_is_premium: boolean;
  author_is_pro: boolean;
  author_is_plus: boolean;
  author_is_multi: boolean;
}

/** A post's or a comment's author, as the DTOs carry it. */
export function toAuthorDto(row: AuthorRow): PostDto['author'] {
  return {
    username: row.author_username,
    photoUrl: row.author_photo_url,
    isPremium: row.author_is_premium,
    isPro: row.author_is_pro,
    isPlus: row.author_is_plus,
    isMulti: row.author_is_multi,
  };
}

export interface PostRow extends AuthorRow {
  id: string;
  user_id: string;
  category: PostDto['category'];
  content: string;
  latitude: number;
  longitude: number;
  nickname: string;
  created_at: string | Date;
  image_url: string | null;
  thumbnail_url: string | null;
  media_urls: string[] | string | null;
  audio_url: string | null;
  audio_duration: number | null;
  has_pulse_effect: boolean;
  comments_count: number;
  likes_count: number;
  is_liked_by_user?: boolean | null;
}

export function toPostDto(row: PostRow): PostDto {
  const mediaUrls = typeof row.media_urls === 'string' ? (JSON.parse(row.media_urls) as string[]) : (row.media_urls ?? []);
  return {
    id: row.id,
    userId: row.user_id,
    category: row.category,
    content: row.content,
    isVoiceOnly: Boolean(row.audio_url) && !row.image_url && row.content === VOICE_ONLY_TEXT,
    latitude: Number(row.latitude),
    longitude: Number(row.longitude),
    nickname: row.nickname,
    createdAt: new Date(row.created_at).toISOString(),
    imageUrl: row.image_url,
    thumbnailUrl: row.thumbnail_url,
    mediaUrls,
    audioUrl: row.audio_url,
    audioDuration: row.audio_duration === null ? null : Number(row.audio_duration),
    hasPulseEffect: row.has_pulse_effect,
    commentsCount: Number(row.comments_count),
    likesCount: Number(row.likes_count),
    isLikedByUser: Boolean(row.is_liked_by_user),
    author: toAuthorDto(row),
  };
}
