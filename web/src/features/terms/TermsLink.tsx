/** The « Conditions d'utilisation » link that opens the CGU modal wherever it is placed. */
import { MESSAGES } from '@moodmap/core';
import { showTerms } from './terms-store.ts';

export function TermsLink({ label = MESSAGES.terms_link, className = '' }: { label?: string; className?: string }) {
  return (
    <button
      type="button"
      data-testid="terms-link"
      onClick={showTerms}
      className={`font-semibold text-brand-700 underline underline-offset-2 hover:text-ink-900 dark:text-brand-300 dark:hover:text-white ${className}`}
    >
      {label}
    </button>
  );
}
