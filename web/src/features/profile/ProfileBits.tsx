import { MESSAGES, MOOD_INFO, frDate, type Mood } from '@moodmap/core';
import type { PostDto } from '../posts/post-types.ts';

/** The mood's badge: emoji and label on the mood colour. */
export function MoodBadge({ mood }: { mood: Mood }) {
  const info = MOOD_INFO[mood];
  return (
    <span
      data-testid="mood-badge"
      className="inline-flex items-center gap-1 rounded-full px-2 py-0.5 text-xs font-semibold text-ink-900"
      style={{ backgroundColor: info.color }}
    >
      <span className="emoji" aria-hidden="true">{info.emoji}</span> {info.label}
    </span>
  );
}

export function PulseBadge() {
  return (
    <span data-testid="pulse-badge" className="inline-flex items-center rounded-full bg-gradient-to-r from-amber-400 to-rose-500 px-2 py-0.5 text-xs font-bold text-white">
      ✨ {MESSAGES.pulse_badge}
    </span>
  );
}

/** A post's images, thumbnails first, without repeats. */
export function postThumbnails(post: Pick<PostDto, 'thumbnailUrl' | 'imageUrl' | 'mediaUrls'>, max: number): string[] {
  const urls = [post.thumbnailUrl ?? post.imageUrl, ...post.mediaUrls].filter((u): u is string => Boolean(u));
  return [...new Set(urls)].slice(0, max);
}

/** 'Membre depuis' date (fr-FR, 22/11/2026) or null when unknown. */
export function memberSince(iso: string | null | undefined): string | null {
  if (!iso) return null;
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? null : frDate(date);
}

/** Navigation state the map reads to centre on a post (spec §2 "Map screen"). */
export const focusState = (postId: string) => ({ state: { focusPostId: postId } });
