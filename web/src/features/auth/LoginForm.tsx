import { type FormEvent, useState } from 'react';
import { MESSAGES } from '@moodmap/core';
import { useSessionStore } from './session-store.ts';
import { useUiStore } from '../../lib/ui-store.ts';
import { FormError, PasswordField } from '../../ui/Field.tsx';
import { EmailField } from './EmailField.tsx';
import { LogoMark } from '../../ui/Logo.tsx';
import { LinkButton } from './LinkButton.tsx';
import { SubmitButton, SwitchMode, typing } from './FormParts.tsx';
import { loginError } from './validation.ts';
import { announceSuspension } from '../moderation/suspension-toast.ts';

/** Login mode: e-mail and password; the server's error shown as it says it. */
export function LoginForm() {
  const signIn = useSessionStore((s) => s.signIn);
  const openAuth = useUiStore((s) => s.openAuth);
  const closeAuth = useUiStore((s) => s.closeAuth);
  const [email, setEmail] = useState(() => useUiStore.getState().authEmail);
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    const invalid = loginError(email, password);
    setError(invalid);
    if (invalid) return;
    setBusy(true);
    const result = await signIn(email.trim(), password);
    setBusy(false);
    if (result.ok) {
      closeAuth();
      void announceSuspension();
    } else setError(result.message);
  }

  return (
    <form onSubmit={submit} noValidate className="space-y-4" data-testid="login-form">
      <div className="flex items-center gap-3 rounded-2xl bg-gradient-to-r from-brand-500/10 to-violet-brand/10 px-4 py-3">
        <LogoMark size={36} />
        <p className="text-sm text-slate-600 dark:text-slate-300">{MESSAGES.auth_welcome}</p>
      </div>
      <EmailField value={email} onChange={typing(setEmail, setError)} data-autofocus />
      <PasswordField
        label={MESSAGES.auth_password_label}
        name="password"
        autoComplete="current-password"
        value={password}
        onChange={typing(setPassword, setError)}
      />
      <div className="-mt-1 flex justify-end text-sm">
        <LinkButton onClick={() => openAuth('forgot', email.trim())}>{MESSAGES.auth_forgot_link}</LinkButton>
      </div>
      <FormError>{error}</FormError>
      <SubmitButton busy={busy} label={MESSAGES.nav_sign_in} busyLabel={MESSAGES.auth_signing_in} />
      <SwitchMode
        question={MESSAGES.auth_no_account}
        label={MESSAGES.auth_register}
        onClick={() => openAuth('register', email.trim())}
      />
    </form>
  );
}
