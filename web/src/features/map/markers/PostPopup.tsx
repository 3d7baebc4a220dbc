/**
 * A single post's popup (spec §2): painted at once from the marker (photo, nickname, mood, time,
 * pulse) as a skeleton of the card, then the card itself when `GET /api/posts/:id` answers (or
 * at once when it is cached). A post that is gone (404) leaves the map and closes its popup.
 */
import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { SHELL_MESSAGES, MOOD_INFO, relativeTime } from '@moodmap/core';
import { ApiError } from '../../../lib/api.ts';
import { DialogHeader } from '../../../ui/DialogHeader.tsx';
import { SparkIcon } from '../../../ui/icons.tsx';
import { AuthorPhoto } from '../../posts/AuthorPhoto.tsx';
import { Suspense } from 'react';
import { lazyScreen } from '../../../ui/lazy-screen.tsx';
import { MoodBadge } from '../../posts/MoodBadge.tsx';
import { usePostCard } from '../../posts/post-card-query.ts';
import { removePostFromCache } from '../../posts/posts-query.ts';
import type { MarkerDto } from '../../posts/post-types.ts';

/**
 * The card's body (likes, comments, report, contact, audio) is a chunk of its own, fetched when a
 * popup first opens, alongside the card's data: the map's first load does not carry it (issue 15).
 */
const loadPostCard = () => import('../../posts/PostCard.tsx');
const PostCard = lazyScreen(loadPostCard, (m) => m.PostCard);

export function PostPopup({ marker, now, onClose, onBack }: { marker: MarkerDto; now: Date; onClose: () => void; onBack?: () => void }) {
  const client = useQueryClient();
  const card = usePostCard(marker.id);
  const gone = card.data === null || (card.error instanceof ApiError && card.error.status === 404);
  useEffect(() => {
    if (gone) removePostFromCache(client, marker.id);
  }, [gone, client, marker.id]);
  useEffect(() => void loadPostCard().catch(() => undefined), []);
  const skeleton = <PostCardSkeleton marker={marker} now={now} onClose={onClose} />;
  if (!card.data) return skeleton;
  return (
    <Suspense fallback={skeleton}>
      <PostCard key={marker.id} post={card.data} now={now} onClose={onClose} onBack={onBack} />
    </Suspense>
  );
}

/** The card's frame with what the marker knows; the rest shimmers until the card arrives. */
export function PostCardSkeleton({ marker, now, onClose }: { marker: MarkerDto; now: Date; onClose: () => void }) {
  const mood = MOOD_INFO[marker.category];
  return (
    <article
      className="flex w-[min(21rem,calc(100vw-5.5rem))] md:w-[21rem] flex-col overflow-hidden rounded-[20px] bg-white text-left text-ink-900 shadow-2xl ring-1 ring-black/5 dark:bg-ink-900 dark:text-slate-100 dark:ring-white/10"
      data-testid="post-popup"
      data-post-id={marker.id}
      aria-busy="true"
    >
      <div className="h-1.5 shrink-0" style={{ backgroundColor: mood.color }} aria-hidden="true" />
      <DialogHeader onClose={onClose} size="md" closeTestId="popup-close" className="px-4 pt-3 pb-2">
        <span className="flex min-w-0 flex-1 items-center gap-3">
          <span className="block size-11 shrink-0 overflow-hidden rounded-full" style={{ boxShadow: `0 0 0 2.5px ${mood.color}` }}>
            <AuthorPhoto post={marker} size={44} />
          </span>
          <span className="min-w-0">
            <span className="block truncate text-[15px] font-bold">{marker.nickname}</span>
            <span className="flex items-center gap-1.5 text-xs text-slate-500 dark:text-slate-400">
              <time dateTime={marker.createdAt}>{relativeTime(marker.createdAt, now)}</time>
              {marker.hasPulseEffect ? (
                <span className="inline-flex items-center gap-0.5 font-semibold text-violet-brand dark:text-violet-300">
                  <SparkIcon size={12} /> {SHELL_MESSAGES.pulse_badge}
                </span>
              ) : null}
            </span>
          </span>
        </span>
      </DialogHeader>
      <div className="space-y-3 px-4 pb-4">
        <MoodBadge post={marker} />
        <span className="block h-4 w-11/12 animate-pulse rounded bg-slate-100 dark:bg-white/10" aria-hidden="true" />
        <span className="block h-4 w-2/3 animate-pulse rounded bg-slate-100 dark:bg-white/10" aria-hidden="true" />
        <span className="block h-10 w-full animate-pulse rounded-xl bg-slate-100 dark:bg-white/10" aria-hidden="true" />
      </div>
    </article>
  );
}
