/**
 * The CGU modal (spec §2 "Terms of use (CGU, 14 sections)"): the numbered sections, and an
 * « Accepter » button when a signed-in member must accept the version in force.
 */
import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { MESSAGES, termsAt } from '@moodmap/core';
import { Dialog } from '../../ui/Dialog.tsx';
import { Button, Spinner } from '../../ui/Button.tsx';
import { FormError } from '../../ui/Field.tsx';
import { useSessionStore } from '../auth/session-store.ts';
import { TERMS_SECTIONS } from './terms-text.ts';
import { useTermsUi } from './terms-store.ts';
import { acceptTerms, termsKey } from './terms-api.ts';

export function TermsModal({ mustAccept = false }: { mustAccept?: boolean }) {
  const hide = useTermsUi((s) => s.hide);
  const userId = useSessionStore((s) => s.user?.id ?? null);
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const { current } = termsAt(new Date());
  const date = new Date(current.effectiveAt).toLocaleDateString('fr-FR', { day: 'numeric', month: 'long', year: 'numeric' });

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
      <div className="max-h-[65vh] space-y-5 overflow-y-auto px-5 pb-5 text-[14px] leading-relaxed text-slate-700 md:px-6 dark:text-slate-300">
        <p className="text-xs text-slate-500 dark:text-slate-400">En vigueur depuis le {date}</p>
        <ol className="space-y-4">
          {TERMS_SECTIONS.map((section, index) => (
            <li key={section.title} data-testid="terms-section">
              <h3 className="mb-1 font-bold text-ink-900 dark:text-white">
                {index + 1}. {section.title}
              </h3>
              {section.paragraphs.map((p) => (
                <p key={p.slice(0, 40)} className="mb-1.5">{p}</p>
              ))}
            </li>
          ))}
        </ol>
      </div>
      {mustAccept ? (
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
