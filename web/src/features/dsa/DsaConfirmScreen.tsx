/** `/signalement-illicite/confirmer?token=…`, the link a visitor's notice mails: opening it confirms the notice once. */
import { useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { MESSAGES } from '@moodmap/core';
import { errorText } from '../../lib/api.ts';
import { Spinner } from '../../ui/Button.tsx';
import { ModalPanel } from '../../ui/ModalPanel.tsx';
import { confirmDsaNotice } from './dsa-api.ts';

function Confirmation({ token }: { token: string }) {
  // A cached answer, asked once: the token serves once, so a second call would read as an invalid link.
  const confirm = useQuery({
    queryKey: ['dsa-confirm', token],
    queryFn: () => confirmDsaNotice(token).then(() => true),
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: Number.POSITIVE_INFINITY,
    retry: false,
    refetchOnMount: false,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
  });
  if (confirm.isError) {
    const text = errorText(confirm.error);
    return (
      <p role="alert" className="text-sm font-medium text-red-600 dark:text-red-400" data-testid="dsa-confirm-error">
        {text}
      </p>
    );
  }
  if (!confirm.isSuccess) return <Spinner />;
  return (
    <p role="status" className="text-sm font-medium text-emerald-700 dark:text-emerald-300" data-testid="dsa-confirmed">
      {MESSAGES.dsa_confirmed}
    </p>
  );
}

export function DsaConfirmScreen() {
  const [params] = useSearchParams();
  return (
    <ModalPanel title={MESSAGES.dsa_confirm_title}>
      <div className="px-5 py-5 md:px-7">
        <Confirmation token={params.get('token') ?? ''} />
      </div>
    </ModalPanel>
  );
}
