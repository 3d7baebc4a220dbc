import { MESSAGES, t } from '@moodmap/core';
import { HeartIcon } from '../../ui/icons.tsx';
import type { PostDto } from '../posts/post-types.ts';
import { useLike } from './use-like.ts';

/** The popup's heart: my state and the count. */
export function LikeButton({ post }: { post: Pick<PostDto, 'id' | 'isLikedByUser' | 'likesCount'> }) {
  const { toggle, pending } = useLike(post);
  const liked = post.isLikedByUser;
  return (
    <button
      type="button"
      onClick={() => void toggle()}
      aria-pressed={liked}
      aria-busy={pending}
      aria-label={`${liked ? MESSAGES.like_remove : MESSAGES.like_add} · ${t('like_count', { count: post.likesCount })}`}
      data-testid="post-like"
      data-liked={liked ? 'true' : 'false'}
      className={`inline-flex h-10 shrink-0 items-center justify-center gap-1.5 rounded-xl px-3 text-sm font-semibold tabular-nums transition active:scale-95 ${
        liked
          ? 'bg-rose-50 text-rose-600 hover:bg-rose-100 dark:bg-rose-500/15 dark:text-rose-300 dark:hover:bg-rose-500/25'
          : 'bg-slate-100 text-ink-800 hover:bg-slate-200 dark:bg-ink-800 dark:text-slate-100 dark:hover:bg-ink-700'
      }`}
    >
      <HeartIcon size={18} fill={liked ? 'currentColor' : 'none'} className={liked ? 'animate-like-pop' : undefined} />
      <span data-testid="post-like-count">{post.likesCount}</span>
    </button>
  );
}
