/**
 * The terms notice: a compact card under the 'Carte / Liste' toggle, in the list panel's column.
 * There it is clear of the top bar, the floating buttons and the bottom navigation; and at z-10,
 * under every panel, menu, toast and dialog, it never covers a screen's controls (the messages
 * composer included). The popup of a post keeps clear of it (data-map-overlay).
 */
import { useState } from 'react';
import { MESSAGES, type TermsVersion } from '@moodmap/core';
import { readString, writeString } from '../../lib/storage.ts';
import { CloseIcon, InfoIcon } from '../../ui/icons.tsx';
import { showTerms, showUpcomingTerms } from './terms-store.ts';
import { TERMS_UI, withDate } from './terms-ui-texts.ts';

/** The version whose notice the member closed: a later version is announced again. */
const DISMISSED_KEY = 'moodmap.termsNoticeDismissed';

const PLACE =
  'fixed inset-x-3 top-[calc(max(env(safe-area-inset-top),0.75rem)+7.75rem)] z-10 md:right-auto md:left-5 md:w-[24rem]';
const CARD =
  'flex items-start gap-3 rounded-2xl bg-white py-3 pr-2 pl-4 text-sm text-slate-700 shadow-lg ring-1 ring-slate-200 dark:bg-ink-800 dark:text-slate-200 dark:ring-white/10';
const LINK =
  'mt-1 font-semibold text-brand-700 underline underline-offset-2 hover:text-ink-900 dark:text-brand-300 dark:hover:text-white';
const CLOSE =
  'flex size-9 shrink-0 items-center justify-center rounded-full text-slate-600 hover:bg-slate-100 hover:text-ink-900 dark:text-slate-300 dark:hover:bg-white/10 dark:hover:text-white';

function NoticeCard({
  text,
  action,
  onAction,
  onDismiss,
}: {
  text: string;
  action: string;
  onAction: () => void;
  onDismiss?: () => void;
}) {
  return (
    <div
      role="status"
      aria-label={TERMS_UI.notice_label}
      data-testid="terms-notice"
      data-map-overlay=""
      className={`${PLACE} ${CARD}`}
    >
      <InfoIcon size={20} className="mt-0.5 shrink-0 text-brand-700 dark:text-brand-300" />
      <div className="min-w-0 flex-1">
        <p>{text}</p>
        <button type="button" onClick={onAction} className={LINK}>
          {action}
        </button>
      </div>
      {onDismiss ? (
        <button
          type="button"
          onClick={onDismiss}
          aria-label={TERMS_UI.notice_dismiss}
          title={TERMS_UI.notice_dismiss}
          data-testid="terms-notice-dismiss"
          className={CLOSE}
        >
          <CloseIcon size={18} />
        </button>
      ) : null}
    </div>
  );
}

/** The next version during its notice, until the member closes this notice of it. */
export function UpcomingTermsNotice({ upcoming }: { upcoming: TermsVersion }) {
  const [dismissed, setDismissed] = useState(() => readString(DISMISSED_KEY));
  if (dismissed === upcoming.version) return null;
  const dismiss = () => {
    writeString(DISMISSED_KEY, upcoming.version);
    setDismissed(upcoming.version);
  };
  return (
    <NoticeCard
      text={withDate(TERMS_UI.notice_upcoming, upcoming.effectiveAt)}
      action={TERMS_UI.notice_view_upcoming}
      onAction={showUpcomingTerms}
      onDismiss={dismiss}
    />
  );
}

/** The version in force is not accepted yet: no closing, this is the way to accept it. */
export function AcceptTermsNotice() {
  return <NoticeCard text={MESSAGES.terms_must_accept} action={TERMS_UI.notice_view_to_accept} onAction={showTerms} />;
}
