/**
 * The CGU modal: the numbered sections of one version, the one in force or, during its notice,
 * the next one with its additions marked; and « Accepter » when a signed-in member must accept
 * the version in force.
 */
import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { MESSAGES, type TermsVersion } from '@moodmap/core';
import { Dialog } from '../../ui/Dialog.tsx';
import { Button, Spinner } from '../../ui/Button.tsx';
import { FormError } from '../../ui/Field.tsx';
import { useSessionStore } from '../auth/session-store.ts';
import { termsSections } from './terms-text.ts';
import { useTermsUi } from './terms-store.ts';
import { acceptTerms, termsKey } from './terms-api.ts';
import { TermsVersionBar } from './TermsVersionBar.tsx';
import { TERMS_UI } from './terms-ui-texts.ts';

export interface TermsVersions {
  current: TermsVersion;
  upcoming: TermsVersion | null;
}

function Sections({ version }: { version: string }) {
  return (
    <ol className="space-y-4">
      {termsSections(version).map((section, index) => (
        <li key={section.title} data-testid="terms-section">
          <h3 className="mb-1 font-bold text-ink-900 dark:text-white">
            {index + 1}. {section.title}
          </h3>
          {section.paragraphs.map((p) => (
            <p key={p.text.slice(0, 40)} className="mb-1.5" data-testid={p.isNew ? 'terms-new-paragraph' : undefined}>
              {p.isNew ? (
                <>
                  <span className="rounded bg-brand-50 px-1.5 py-0.5 text-xs font-bold text-brand-700 dark:bg-brand-300/15 dark:text-brand-200">
                    {TERMS_UI.new_badge}
                  </span>{' '}
                </>
              ) : null}
              {p.text}
            </p>
          ))}
        </li>
      ))}
    </ol>
  );
}

export function TermsModal({ versions, mustAccept = false }: { versions: TermsVersions; mustAccept?: boolean }) {
  const hide = useTermsUi((s) => s.hide);
  const view = useTermsUi((s) => s.view);
  const userId = useSessionStore((s) => s.user?.id ?? null);
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const { current, upcoming } = versions;
  const shown = view === 'upcoming' && upcoming ? upcoming : current;

  async function accept() {
    setBusy(true);
    try {
      await acceptTerms(current.version);
      await queryClient.invalidateQueries({ queryKey: termsKey(userId) });
      hide();
    } catch (e) {
      setError(e instanceof Error ? e.message : MESSAGES.internal_error);
    } finally {
      setBusy(false);
    }
  }

  return (
    <Dialog title={MESSAGES.terms_title} onClose={hide} testId="terms-modal" width="max-w-2xl">
      <div
        className="max-h-[65vh] space-y-5 overflow-y-auto px-5 pb-5 text-[14px] leading-relaxed text-slate-700 md:px-6 dark:text-slate-300"
        data-terms-version={shown.version}
      >
        <TermsVersionBar current={current} upcoming={upcoming} showingUpcoming={shown !== current} />
        <Sections version={shown.version} />
      </div>
      {mustAccept && shown === current ? (
        <div className="space-y-2 border-t border-slate-200 px-5 py-4 md:px-6 dark:border-white/10">
          <FormError>{error}</FormError>
          <Button onClick={() => void accept()} disabled={busy} data-testid="terms-accept">
            {busy ? <Spinner /> : null}
            {MESSAGES.terms_accept}
          </Button>
        </div>
      ) : null}
    </Dialog>
  );
}
