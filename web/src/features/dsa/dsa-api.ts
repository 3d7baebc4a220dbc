/** Notices of illegal content (DSA Art. 16) as the web app sends them; the server checks everything. */
import type { DsaNoticeInput } from '@moodmap/core';
import { api } from '../../lib/api.ts';
import { parseAnswerLazy } from '../../lib/schemas.ts';

/** As typed: an unticked good-faith box is sent too, for the server's French refusal. */
export type DsaNoticeForm = Omit<DsaNoticeInput, 'goodFaith'> & { goodFaith: boolean };

/** 'confirm': a link was mailed; 'received': queued at once (a member's own address). */
export async function sendDsaNotice(input: DsaNoticeForm): Promise<'confirm' | 'received'> {
  const answer = await parseAnswerLazy(
    (s) => s.dsaNoticeResponseSchema,
    await api<unknown>('/api/dsa-notices', { method: 'POST', body: input }),
  );
  return answer.status;
}

export async function confirmDsaNotice(token: string): Promise<void> {
  await parseAnswerLazy(
    (s) => s.dsaConfirmResponseSchema,
    await api<unknown>('/api/dsa-notices/confirm', { method: 'POST', body: { token }, auth: false }),
  );
}
