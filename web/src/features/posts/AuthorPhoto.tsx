import { useState } from 'react';
import { MOOD_INFO } from '@moodmap/core';
import type { PostDto } from './post-types.ts';

export function initialsOf(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  const letters = words.slice(0, 2).map((w) => Array.from(w)[0]);
  return letters.join('').toUpperCase() || '?';
}

/** A card (its author) or a marker (the photo it carries). */
type Photographed = Pick<PostDto, 'category' | 'nickname'> &
  ({ author: Pick<PostDto['author'], 'photoUrl' | 'username'> } | { photoUrl: string | null });

/** The author's photo, or their initials on the mood's tint when there is none or it fails. */
export function AuthorPhoto({ post, size }: { post: Photographed; size: number }) {
  const [broken, setBroken] = useState(false);
  const mood = MOOD_INFO[post.category];
  const url = 'author' in post ? post.author.photoUrl : post.photoUrl;
  const name = 'author' in post ? post.author.username || post.nickname : post.nickname;
  if (url && !broken) {
    return (
      <img
        src={url}
        alt=""
        draggable={false}
        onError={() => setBroken(true)}
        className="size-full rounded-full object-cover"
        style={{ width: size, height: size }}
      />
    );
  }
  return (
    <span
      className="flex size-full items-center justify-center rounded-full font-bold text-ink-900 select-none"
      style={{
        width: size,
        height: size,
        fontSize: size * 0.36,
        background: `linear-gradient(135deg, #ffffff 0%, ${mood.color} 140%)`,
      }}
      aria-hidden="true"
    >
      {initialsOf(name)}
    </span>
  );
}
