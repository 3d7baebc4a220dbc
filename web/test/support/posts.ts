/** One post as the API returns it, for every web test that needs one; overrides name what matters. */
import type { PostDto } from '@moodmap/core';

/** A free-tier author named `username`. */
export const makeAuthor = (username: string, over: Partial<PostDto['author']> = {}): PostDto['author'] => ({
  username,
  photoUrl: null,
  isPremium: false,
  isPro: false,
  isPlus: false,
  isMulti: false,
  ...over,
});

export function makePost(over: Partial<PostDto> = {}): PostDto {
  return {
    id: 'p-1',
    userId: 'author-1',
    category: 'happy',
    content: 'Grand soleil sur la plage de Boucan Canot, venez profiter de la mer avant ce soir !',
    isVoiceOnly: false,
    latitude: -21.0667,
    longitude: 55.2167,
    nickname: 'Léa',
    createdAt: '2026-03-01T10:00:00.000Z',
    imageUrl: null,
    thumbnailUrl: null,
    mediaUrls: [],
    audioUrl: null,
    audioDuration: null,
    hasPulseEffect: false,
    commentsCount: 0,
    likesCount: 0,
    isLikedByUser: false,
    approximate: false,
    author: makeAuthor('Léa'),
    ...over,
  };
}
