import { MOOD_INFO } from '@moodmap/core';
import type { PostDto } from './post-types.ts';

/** A post's mood as a coloured pill: the popup, its skeleton and a 100 m group's list show it. */
export function MoodBadge({ post, small = false }: { post: Pick<PostDto, 'category'>; small?: boolean }) {
  const mood = MOOD_INFO[post.category];
  return (
    <span
      className={`inline-flex shrink-0 items-center gap-1 rounded-full font-semibold text-ink-900 ${small ? 'px-1.5 py-px text-[10px]' : 'px-2 py-0.5 text-[11px]'}`}
      style={{ backgroundColor: mood.color }}
      data-testid="mood-badge"
    >
      <span className="emoji">{mood.emoji}</span> {mood.label}
    </span>
  );
}
