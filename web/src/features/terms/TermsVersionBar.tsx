/** Above the CGU: which version is shown, since or from when it applies, and the way to the other one. */
import type { TermsVersion } from '@moodmap/core';
import { useTermsUi } from './terms-store.ts';
import { TERMS_UI, withDate } from './terms-ui-texts.ts';

const SWITCH =
  'font-semibold text-brand-700 underline underline-offset-2 hover:text-ink-900 dark:text-brand-300 dark:hover:text-white';

export function TermsVersionBar({
  current,
  upcoming,
  showingUpcoming,
}: {
  current: TermsVersion;
  upcoming: TermsVersion | null;
  showingUpcoming: boolean;
}) {
  const setView = useTermsUi((s) => s.setView);
  if (showingUpcoming && upcoming) {
    return (
      <p className="text-xs text-slate-600 dark:text-slate-300" data-testid="terms-version">
        {withDate(TERMS_UI.upcoming, upcoming.effectiveAt)}{' '}
        <button type="button" onClick={() => setView('current')} className={SWITCH}>
          {TERMS_UI.show_current}
        </button>
      </p>
    );
  }
  return (
    <p className="text-xs text-slate-600 dark:text-slate-300" data-testid="terms-version">
      {withDate(TERMS_UI.in_force, current.effectiveAt)}
      {upcoming ? (
        <>
          {' '}
          {withDate(TERMS_UI.next_announced, upcoming.effectiveAt)}{' '}
          <button type="button" onClick={() => setView('upcoming')} className={SWITCH}>
            {TERMS_UI.show_upcoming}
          </button>
        </>
      ) : null}
    </p>
  );
}
