/**
 * The comments area of the post popup: the list oldest
 * first, then the box to add one; a visitor is asked to sign in.
 */
import { useEffect, useRef } from 'react';
import { MESSAGES, t } from '@moodmap/core';
import { useSessionStore } from '../auth/session-store.ts';
import { useUiStore } from '../../lib/ui-store.ts';
import { Spinner } from '../../ui/Button.tsx';
import type { PostDto } from '../posts/post-types.ts';
import { CommentForm } from './CommentForm.tsx';
import { CommentItem } from './CommentItem.tsx';
import { useCommentActions, useCommentsQuery } from './use-comments.ts';

export function CommentsSection({ post, now }: { post: Pick<PostDto, 'id' | 'commentsCount'>; now: Date }) {
  const user = useSessionStore((s) => s.user);
  const openAuth = useUiStore((s) => s.openAuth);
  const query = useCommentsQuery(post.id, true);
  const actions = useCommentActions(post.id);
  const ref = useRef<HTMLElement>(null);

  // Opening the area brings it into view inside the popup's scroller.
  useEffect(() => {
    ref.current?.scrollIntoView?.({ block: 'nearest', behavior: 'smooth' });
  }, []);

  const comments = query.data ?? [];
  const count = post.commentsCount;

  return (
    <section
      ref={ref}
      className="rounded-2xl bg-slate-50 p-3 text-sm dark:bg-ink-800"
      data-testid="post-comments"
      aria-label={MESSAGES.comments_title}
    >
      <h3
        className="mb-2 text-xs font-bold tracking-wide text-slate-500 uppercase dark:text-slate-400"
        data-testid="comments-count"
      >
        {t(count > 1 ? 'comments_count_other' : 'comments_count_one', { count })}
      </h3>
      {query.isPending ? (
        <div className="flex justify-center py-3 text-brand-500" role="status" aria-label={MESSAGES.loading}>
          <Spinner className="size-5" />
        </div>
      ) : query.isError && comments.length === 0 ? (
        <div className="flex flex-wrap items-center gap-2 py-1 text-xs text-rose-600 dark:text-rose-300" role="alert">
          {MESSAGES.comments_load_failed}
          <button
            type="button"
            onClick={() => void query.refetch()}
            className="font-semibold text-brand-700 hover:underline dark:text-brand-300"
          >
            {MESSAGES.comments_retry}
          </button>
        </div>
      ) : comments.length === 0 ? (
        <p className="py-1 text-xs text-slate-500 dark:text-slate-400" data-testid="comments-empty">
          {MESSAGES.comments_empty}
        </p>
      ) : (
        <ul className="space-y-3" data-testid="comments-list">
          {comments.map((comment) => (
            <CommentItem
              key={comment.id}
              comment={comment}
              now={now}
              mine={user?.id === comment.userId}
              onEdit={actions.edit}
              onDelete={actions.remove}
            />
          ))}
        </ul>
      )}
      <div className="mt-3 border-t border-slate-200/70 pt-3 dark:border-white/5">
        {user ? (
          <CommentForm submitLabel={MESSAGES.contact_submit} onSubmit={actions.add} testId="comment-form" />
        ) : (
          <div className="flex flex-wrap items-center gap-2" data-testid="comments-signed-out">
            <p className="text-xs text-slate-500 dark:text-slate-400">{MESSAGES.comment_signed_out}</p>
            <button
              type="button"
              onClick={() => openAuth('login')}
              className="text-xs font-semibold text-brand-700 hover:underline dark:text-brand-300"
            >
              {MESSAGES.nav_sign_in}
            </button>
          </div>
        )}
      </div>
    </section>
  );
}
