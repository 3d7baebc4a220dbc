/**
 * App-wide terms UI: the CGU modal when opened, and for a signed-in member the notice of the next
 * version during its notice period, then the request to accept the version in force: the modal
 * with « Accepter » opens by itself when the session's acceptance is outdated or when the API
 * refuses a write for it (`terms_not_accepted`); once accepted, the member carries on.
 */
import { type ReactNode, useEffect } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { MINUTE, termsAt } from '@moodmap/core';
import { onApiRefusal } from '../../lib/api.ts';
import { Deferred, lazyScreen } from '../../ui/lazy-screen.tsx';
import { useSessionStore } from '../auth/session-store.ts';
import { fetchTerms, termsKey } from './terms-api.ts';
import { useTermsUi } from './terms-store.ts';
import { AcceptTermsNotice, UpcomingTermsNotice } from './TermsNotice.tsx';

const TermsModal = lazyScreen(
  () => import('./TermsModal.tsx'),
  (m) => m.TermsModal,
);

export function TermsLayer() {
  const open = useTermsUi((s) => s.open);
  const askedToAccept = useTermsUi((s) => s.mustAccept);
  const userId = useSessionStore((s) => s.user?.id ?? null);
  const queryClient = useQueryClient();
  const terms = useQuery({
    queryKey: termsKey(userId),
    queryFn: ({ signal }) => fetchTerms(signal),
    enabled: userId !== null,
    staleTime: 10 * MINUTE,
  });
  const status = userId ? terms.data : undefined;
  const outdated = status?.mustAccept ?? false;

  useEffect(() => {
    if (outdated) useTermsUi.getState().requireAcceptance();
  }, [outdated]);
  useEffect(
    () =>
      onApiRefusal((error) => {
        if (error.code !== 'terms_not_accepted') return;
        useTermsUi.getState().requireAcceptance();
        void queryClient.invalidateQueries({ queryKey: termsKey(userId) });
      }),
    [queryClient, userId],
  );
  // The server's clock decides; a visitor (signing up) reads the versions by this device's.
  const versions = status ? { current: status.current, upcoming: status.upcoming } : termsAt(new Date());
  let notice: ReactNode = null;
  if (status?.mustAccept) notice = <AcceptTermsNotice />;
  else if (status?.upcoming) notice = <UpcomingTermsNotice upcoming={status.upcoming} />;
  return (
    <>
      {notice}
      {open ? (
        <Deferred>
          <TermsModal versions={versions} mustAccept={outdated || askedToAccept} />
        </Deferred>
      ) : null}
    </>
  );
}
