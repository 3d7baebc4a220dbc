import { type FormEvent, useState } from 'react';
import { MESSAGES } from '@moodmap/core';
import { useSessionStore } from './session-store.ts';
import { useUiStore } from '../../lib/ui-store.ts';
import { FormError } from '../../ui/Field.tsx';
import { EmailField } from './EmailField.tsx';
import { MailIcon } from '../../ui/icons.tsx';
import { SubmitButton, SwitchMode, typing } from './FormParts.tsx';
import { forgotError } from './validation.ts';

/**
 * Forgot-password mode. The server answers the same for every address; the form shows its
 * validation and rate-limit texts, and 'Une erreur est survenue. Veuillez réessayer.' for the
 * rest.
 */
export function ForgotForm() {
  const requestPasswordReset = useSessionStore((s) => s.requestPasswordReset);
  const openAuth = useUiStore((s) => s.openAuth);
  const [email, setEmail] = useState(() => useUiStore.getState().authEmail);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    const invalid = forgotError(email);
    setError(invalid);
    if (invalid) return;
    setBusy(true);
    const result = await requestPasswordReset(email.trim());
    setBusy(false);
    if (result.ok) openAuth('reset-sent', email.trim());
    else setError(result.status === 400 || result.status === 429 ? result.message : MESSAGES.reset_request_failed);
  }

  return (
    <form onSubmit={submit} noValidate className="space-y-4" data-testid="forgot-form">
      <p className="text-sm leading-relaxed text-slate-600 dark:text-slate-300">{MESSAGES.auth_forgot_intro}</p>
      <EmailField value={email} onChange={typing(setEmail, setError)} data-autofocus />
      <FormError>{error}</FormError>
      <SubmitButton
        busy={busy}
        label={MESSAGES.auth_forgot_submit}
        busyLabel={MESSAGES.auth_sending}
        icon={<MailIcon size={18} />}
      />
      <SwitchMode label={MESSAGES.auth_back_to_login} onClick={() => openAuth('login', email.trim())} />
    </form>
  );
}
