import { useState } from 'react';
import { MESSAGES } from '@moodmap/core';
import { Spinner } from '../../ui/Button.tsx';
import { TrashIcon } from '../../ui/icons.tsx';
import { useDeletePost } from './use-delete-post.ts';

/** 'Supprimer', then a confirmation in place; the owner's only. */
export function DeletePostButton({
  postId,
  onDeleted,
  compact = false,
}: {
  postId: string;
  onDeleted?: () => void;
  compact?: boolean;
}) {
  const { remove, deleting } = useDeletePost();
  const [confirming, setConfirming] = useState(false);
  const base = `inline-flex items-center justify-center gap-1.5 rounded-xl font-semibold transition ${compact ? 'h-9 px-3 text-xs' : 'h-11 px-4 text-sm'}`;
  if (!confirming) {
    return (
      <button
        type="button"
        onClick={() => setConfirming(true)}
        data-testid="post-delete"
        className={`${base} text-rose-600 hover:bg-rose-50 dark:text-rose-300 dark:hover:bg-rose-500/10`}
      >
        <TrashIcon size={compact ? 15 : 17} /> {MESSAGES.post_delete}
      </button>
    );
  }
  return (
    <fieldset className="flex min-w-0 flex-wrap items-center gap-2" aria-label={MESSAGES.post_delete_confirm}>
      <span className="text-xs font-semibold text-ink-900 dark:text-white">{MESSAGES.post_delete_confirm}</span>
      <button
        type="button"
        onClick={() => setConfirming(false)}
        disabled={deleting}
        className={`${base} bg-slate-100 text-ink-800 hover:bg-slate-200 dark:bg-ink-700 dark:text-slate-100`}
      >
        {MESSAGES.cancel}
      </button>
      <button
        type="button"
        data-testid="post-delete-confirm"
        disabled={deleting}
        onClick={async () => {
          if (await remove(postId)) onDeleted?.();
          else setConfirming(false);
        }}
        className={`${base} bg-rose-500 text-white hover:bg-rose-600 disabled:opacity-60`}
      >
        {deleting ? <Spinner className="size-3.5" /> : <TrashIcon size={compact ? 15 : 17} />} {MESSAGES.post_delete}
      </button>
    </fieldset>
  );
}
