/**
 * After a sign-in, a suspended member is told until when: the end date comes from
 * their notices (the server compares it with its clock). Never blocks the sign-in itself.
 */
import { t, type NoticesResponse } from '@moodmap/core';
import { api } from '../../lib/api.ts';
import { toast } from '../../ui/toasts/toast-store.ts';

const FR_DATE = new Intl.DateTimeFormat('fr-FR', { dateStyle: 'long', timeStyle: 'short' });

export async function announceSuspension(): Promise<void> {
  try {
    const { suspendedUntil } = await api<NoticesResponse>('/api/moderation/notices');
    if (suspendedUntil)
      toast.warning(t('account_suspended_notice', { date: FR_DATE.format(new Date(suspendedUntil)) }), {
        duration: 10_000,
      });
  } catch {
    // The notices are a courtesy here; the server refuses the writes anyway.
  }
}
