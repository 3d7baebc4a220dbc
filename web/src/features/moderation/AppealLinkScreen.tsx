/**
 * `/appeal?token=…`, the appeal link of a statement of reasons' e-mail (DSA Art. 20):
 * the statement, then the appeal form while the decision may still be appealed. No sign-in: a
 * banned author cannot sign in, and the token alone names the decision (server-checked).
 */
import { useSearchParams } from 'react-router';
import { MESSAGES } from '@moodmap/core';
import { errorText } from '../../lib/api.ts';
import { Spinner } from '../../ui/Button.tsx';
import { ModalPanel } from '../../ui/ModalPanel.tsx';
import { AppealForm, NoticeText } from './NoticesPanel.tsx';
import { useAppealByLink, useAppealLink } from './moderation-api.ts';

function AppealLink({ token }: { token: string }) {
  const statement = useAppealLink(token);
  const appeal = useAppealByLink(token);
  if (statement.isPending) return <Spinner />;
  if (statement.isError) {
    const text = errorText(statement.error);
    return (
      <p role="alert" className="text-sm font-medium text-red-600 dark:text-red-400" data-testid="appeal-link-error">
        {text}
      </p>
    );
  }
  const { title, lines, canAppeal } = statement.data;
  return (
    <div data-testid="appeal-link">
      <NoticeText title={title} lines={lines} />
      {canAppeal ? <AppealForm id="link" appeal={appeal} /> : null}
    </div>
  );
}

export function AppealLinkScreen() {
  const [params] = useSearchParams();
  return (
    <ModalPanel title={MESSAGES.appeal_link_title}>
      <div className="px-5 py-5 md:px-7">
        <AppealLink token={params.get('token') ?? ''} />
      </div>
    </ModalPanel>
  );
}
