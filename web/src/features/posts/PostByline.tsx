import { MOOD_INFO, SHELL_MESSAGES, relativeTime } from '@moodmap/core';
import { SparkIcon } from '../../ui/icons.tsx';
import { AuthorPhoto } from './AuthorPhoto.tsx';
import type { MarkerDto, PostDto } from './post-types.ts';

/**
 * Who posted and when, at the head of a popup: the author's photo ringed in the mood's colour,
 * the nickname, the relative time and the pulse mark. The card shows it from the full post, its
 * skeleton from the marker; `linked` underlines the name where it opens the profile.
 */
export function PostByline({ post, now, linked = false }: { post: MarkerDto | PostDto; now: Date; linked?: boolean }) {
  const mood = MOOD_INFO[post.category];
  return (
    <>
      <span
        className="block size-11 shrink-0 overflow-hidden rounded-full"
        style={{ boxShadow: `0 0 0 2.5px ${mood.color}` }}
      >
        <AuthorPhoto post={post} size={44} />
      </span>
      <span className="min-w-0">
        <span
          className={
            linked ? 'block truncate text-[15px] font-bold hover:underline' : 'block truncate text-[15px] font-bold'
          }
        >
          {post.nickname}
        </span>
        <span className="flex items-center gap-1.5 text-xs text-slate-500 dark:text-slate-400">
          <time dateTime={post.createdAt}>{relativeTime(post.createdAt, now)}</time>
          {post.hasPulseEffect ? (
            <span className="inline-flex items-center gap-0.5 font-semibold text-violet-brand dark:text-violet-300">
              <SparkIcon size={12} /> {SHELL_MESSAGES.pulse_badge}
            </span>
          ) : null}
        </span>
      </span>
    </>
  );
}
