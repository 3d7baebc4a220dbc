/**
 * App-wide terms UI (issue 18): the CGU modal when opened, and for a signed-in member the notice
 * of a new version during its 30 days (spec §9), then the request to accept the version in force:
 * the modal with « Accepter » opens by itself when the session's acceptance is outdated or when the
 * API refuses a write for it (`terms_not_accepted`); once accepted, the member carries on.
 */
import { useEffect } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { MESSAGES, t } from '@moodmap/core';
import { onApiRefusal } from '../../lib/api.ts';
import { Deferred, lazyScreen } from '../../ui/lazy-screen.tsx';
import { useSessionStore } from '../auth/session-store.ts';
import { fetchTerms, termsKey } from './terms-api.ts';
import { showTerms, useTermsUi } from './terms-store.ts';

const TermsModal = lazyScreen(() => import('./TermsModal.tsx'), (m) => m.TermsModal);

export function TermsLayer() {
  const open = useTermsUi((s) => s.open);
  const askedToAccept = useTermsUi((s) => s.mustAccept);
  const userId = useSessionStore((s) => s.user?.id ?? null);
  const queryClient = useQueryClient();
  const terms = useQuery({ queryKey: termsKey(userId), queryFn: ({ signal }) => fetchTerms(signal), enabled: userId !== null, staleTime: 10 * 60_000 });
  const status = userId ? terms.data : undefined;
  const outdated = status?.mustAccept ?? false;

  useEffect(() => {
    if (outdated) useTermsUi.getState().requireAcceptance();
  }, [outdated]);
  useEffect(() => onApiRefusal((error) => {
    if (error.code !== 'terms_not_accepted') return;
    useTermsUi.getState().requireAcceptance();
    void queryClient.invalidateQueries({ queryKey: termsKey(userId) });
  }), [queryClient, userId]);
  let notice: string | null = null;
  if (status?.mustAccept) notice = MESSAGES.terms_must_accept;
  else if (status?.upcoming) {
    notice = t('terms_notice', { date: new Date(status.upcoming.effectiveAt).toLocaleDateString('fr-FR', { day: 'numeric', month: 'long', year: 'numeric' }) });
  }
  return (
    <>
      {notice ? (
        <div role="status" data-testid="terms-notice" className="fixed inset-x-0 bottom-20 z-40 mx-auto flex w-fit max-w-[92vw] items-center gap-3 rounded-2xl bg-white px-4 py-2.5 text-sm text-slate-700 shadow-lg ring-1 ring-slate-200 md:bottom-6 dark:bg-ink-800 dark:text-slate-200 dark:ring-white/10">
          <span>{notice}</span>
          <button type="button" onClick={showTerms} className="shrink-0 font-semibold text-brand-600 dark:text-brand-300">
            {MESSAGES.terms_link}
          </button>
        </div>
      ) : null}
      {open ? <Deferred><TermsModal mustAccept={outdated || askedToAccept} /></Deferred> : null}
    </>
  );
}
