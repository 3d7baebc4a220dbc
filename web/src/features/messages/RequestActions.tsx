import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { MESSAGES, type ParticipantDto, t } from '@moodmap/core';
import { ApiError } from '../../lib/api.ts';
import { Button } from '../../ui/Button.tsx';
import { toast } from '../../ui/toasts/toast-store.ts';
import { acceptRequest, blockAndReport, deleteRequest } from './message-requests.ts';
import { useMessagesSelection } from './messages-store.ts';

type Action = 'accept' | 'delete' | 'block';

/**
 * Under a request's messages, in place of the composer: accept it, delete it, or block and report
 * its sender. A sender whose account was deleted can be neither blocked nor answered: the request
 * says so and may still be kept or deleted.
 */
export function RequestActions({ conversationId, other }: { conversationId: string; other: ParticipantDto }) {
  const client = useQueryClient();
  const senderId = other.id;
  const clear = useMessagesSelection((s) => s.clear);
  const [busy, setBusy] = useState<Action | null>(null);

  const run = async (action: Action) => {
    if (busy) return;
    setBusy(action);
    try {
      if (action === 'accept') {
        await acceptRequest(client, conversationId);
      } else if (action === 'delete') {
        await deleteRequest(client, conversationId);
        clear();
        toast.success(MESSAGES.request_deleted);
      } else if (senderId !== null) {
        await blockAndReport(client, conversationId, senderId);
        clear();
        toast.success(MESSAGES.request_blocked_reported);
      }
    } catch (error) {
      toast.error(error instanceof ApiError ? error.message : MESSAGES.request_action_failed);
    } finally {
      setBusy(null);
    }
  };

  return (
    <section
      className="shrink-0 border-t border-slate-100 bg-white px-4 py-3 dark:border-white/5 dark:bg-ink-900"
      data-testid="request-actions"
    >
      <p className="mb-3 text-sm text-slate-600 dark:text-slate-300" data-testid="request-intro">
        {senderId === null ? MESSAGES.conversation_closed : t('request_intro', { nickname: other.nickname })}
      </p>
      <div className="flex flex-wrap gap-2">
        <Button onClick={() => void run('accept')} disabled={busy !== null} data-testid="request-accept">
          {MESSAGES.request_accept}
        </Button>
        <Button
          variant="secondary"
          onClick={() => void run('delete')}
          disabled={busy !== null}
          data-testid="request-delete"
        >
          {MESSAGES.request_delete}
        </Button>
        {senderId === null ? null : (
          <Button
            variant="danger"
            onClick={() => void run('block')}
            disabled={busy !== null}
            data-testid="request-block"
          >
            {MESSAGES.request_block_report}
          </Button>
        )}
      </div>
    </section>
  );
}
