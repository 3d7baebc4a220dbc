import type { ReactNode } from 'react';
import { MOOD_INFO } from '@moodmap/core';
import type { MarkerDto, PostDto } from './post-types.ts';

/**
 * The frame of a post's popup on the map: the card, with the mood's colour along its top. The
 * skeleton painted from the marker while the post loads is marked busy; it stays short, so only
 * the full card is capped to the viewport's height (its body scrolls).
 */
export function PopupFrame({
  post,
  skeleton = false,
  children,
}: {
  post: MarkerDto | PostDto;
  skeleton?: boolean;
  children: ReactNode;
}) {
  const mood = MOOD_INFO[post.category];
  return (
    <article
      className={`flex ${skeleton ? '' : 'max-h-[min(32rem,calc(100dvh-19rem))] '}w-[min(21rem,calc(100vw-5.5rem))] md:w-[21rem] flex-col overflow-hidden rounded-[20px] bg-white text-left text-ink-900 shadow-2xl ring-1 ring-black/5 dark:bg-ink-900 dark:text-slate-100 dark:ring-white/10`}
      data-testid="post-popup"
      data-post-id={post.id}
      aria-busy={skeleton ? 'true' : undefined}
    >
      <div className="h-1.5 shrink-0" style={{ backgroundColor: mood.color }} aria-hidden="true" />
      {children}
    </article>
  );
}
