import { openProfileModal } from '../../lib/ui-store.ts';
import { useState } from 'react';
import { type CommentDto, MESSAGES, relativeTime } from '@moodmap/core';
import { TierBadge } from '../../ui/TierBadge.tsx';
import { Avatar } from '../profile/Avatar.tsx';
import { CommentForm } from './CommentForm.tsx';
import { isTempComment } from './comments-cache.ts';

const LINK = 'rounded text-[11px] font-semibold transition hover:underline';

/** One comment: photo, name (to the profile), tier, relative time, '(modifié)'; my own can be edited or deleted. */
export function CommentItem({
  comment,
  now,
  mine,
  onEdit,
  onDelete,
}: {
  comment: CommentDto;
  now: Date;
  mine: boolean;
  onEdit: (comment: CommentDto, text: string) => Promise<boolean>;
  onDelete: (comment: CommentDto) => Promise<boolean>;
}) {
  const [mode, setMode] = useState<'view' | 'edit' | 'confirm-delete'>('view');
  const pending = isTempComment(comment);
  const profile = () => openProfileModal(comment.userId);

  return (
    <li
      className={`flex gap-2.5 ${pending ? 'opacity-60' : ''}`}
      data-testid="comment"
      data-comment-id={comment.id}
      data-mine={mine ? 'true' : undefined}
    >
      <button type="button" onClick={profile} tabIndex={-1} aria-hidden="true" className="mt-0.5 shrink-0 rounded-full">
        <Avatar url={comment.author.photoUrl} name={comment.author.username} size={30} />
      </button>
      <div className="min-w-0 flex-1">
        <div className="flex flex-wrap items-center gap-x-1.5 gap-y-0.5 text-xs leading-5">
          <button
            type="button"
            onClick={profile}
            className="max-w-full truncate font-bold text-ink-900 hover:underline dark:text-white"
            data-testid="comment-author"
          >
            {comment.author.username}
          </button>
          {/* Precedence multi, plus, pro, premium, as in the profile modal. */}
          <TierBadge flags={comment.author} place="modal" showFree={false} />
          <time dateTime={comment.createdAt} className="text-slate-500 dark:text-slate-400">
            {relativeTime(comment.createdAt, now)}
          </time>
          {comment.isEdited ? (
            <span className="text-slate-500 italic dark:text-slate-400" data-testid="comment-edited">
              {MESSAGES.comment_edited}
            </span>
          ) : null}
        </div>
        {mode === 'edit' ? (
          <div className="mt-1">
            <CommentForm
              initial={comment.content}
              submitLabel={MESSAGES.comment_save}
              autoFocus
              testId="comment-edit-form"
              onCancel={() => setMode('view')}
              onSubmit={async (text) => {
                setMode('view');
                if (text.trim() === comment.content.trim()) return true;
                return onEdit(comment, text);
              }}
            />
          </div>
        ) : (
          <p
            className="mt-0.5 text-[13.5px] leading-snug break-words whitespace-pre-line text-ink-800 dark:text-slate-200"
            data-testid="comment-text"
          >
            {comment.content}
          </p>
        )}
        {mine && !pending && mode === 'view' ? (
          <fieldset className="mt-1 flex min-w-0 items-center gap-3" aria-label={MESSAGES.comment_actions}>
            <button
              type="button"
              onClick={() => setMode('edit')}
              className={`${LINK} text-slate-500 dark:text-slate-400`}
              data-testid="comment-edit"
            >
              {MESSAGES.comment_edit}
            </button>
            <button
              type="button"
              onClick={() => setMode('confirm-delete')}
              className={`${LINK} text-rose-600 dark:text-rose-300`}
              data-testid="comment-delete"
            >
              {MESSAGES.post_delete}
            </button>
          </fieldset>
        ) : null}
        {mode === 'confirm-delete' ? (
          <fieldset
            className="mt-1.5 flex min-w-0 flex-wrap items-center gap-2 rounded-lg bg-rose-50 px-2 py-1.5 dark:bg-rose-500/10"
            aria-label={MESSAGES.comment_delete_confirm}
          >
            <span className="text-[11px] font-semibold text-rose-700 dark:text-rose-200">
              {MESSAGES.comment_delete_confirm}
            </span>
            <span className="ml-auto flex items-center gap-1.5">
              <button
                type="button"
                onClick={() => setMode('view')}
                className="h-7 rounded-md px-2 text-[11px] font-semibold text-slate-600 hover:bg-white/70 dark:text-slate-300 dark:hover:bg-white/10"
              >
                {MESSAGES.cancel}
              </button>
              <button
                type="button"
                onClick={() => {
                  setMode('view');
                  void onDelete(comment);
                }}
                className="h-7 rounded-md bg-rose-500 px-2.5 text-[11px] font-semibold text-white hover:bg-rose-600"
                data-testid="comment-delete-confirm"
              >
                {MESSAGES.post_delete}
              </button>
            </span>
          </fieldset>
        ) : null}
      </div>
    </li>
  );
}
