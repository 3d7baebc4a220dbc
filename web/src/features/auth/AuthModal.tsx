import { type FormEvent, type ReactNode, useState } from 'react';
import { MESSAGES } from '@moodmap/core';
import { useSessionStore } from '../../app/session-store.ts';
import { type AuthMode, useUiStore } from '../../app/ui-store.ts';
import { Button, Spinner } from '../../ui/Button.tsx';
import { Dialog } from '../../ui/Dialog.tsx';
import { FormError, PasswordField, TextField } from '../../ui/Field.tsx';
import { CheckCircleIcon, MailIcon } from '../../ui/icons.tsx';
import { LogoMark } from '../../ui/Logo.tsx';
import { forgotError, loginError, registerError } from './validation.ts';

const TITLES: Record<AuthMode, string> = {
  login: MESSAGES.auth_login_title,
  register: MESSAGES.auth_register,
  forgot: MESSAGES.auth_forgot_title,
  'reset-sent': MESSAGES.auth_reset_sent_title,
  'register-sent': MESSAGES.auth_register_sent_title,
};

/** Login / register / forgot-password modal (spec §2 "Modals", §4 "Auth modal modes"). */
export function AuthModal() {
  const mode = useUiStore((s) => s.authMode);
  const closeAuth = useUiStore((s) => s.closeAuth);
  if (!mode) return null;
  return (
    <Dialog title={TITLES[mode]} onClose={closeAuth} testId="auth-modal">
      {mode === 'login' ? <LoginForm /> : null}
      {mode === 'register' ? <RegisterForm /> : null}
      {mode === 'forgot' ? <ForgotForm /> : null}
      {mode === 'reset-sent' ? <SentNotice text={MESSAGES.auth_reset_sent} /> : null}
      {mode === 'register-sent' ? <SentNotice text={MESSAGES.auth_register_sent} /> : null}
    </Dialog>
  );
}

function LinkButton({ children, onClick }: { children: ReactNode; onClick: () => void }) {
  return (
    <button
      type="button"
      onClick={onClick}
      className="rounded-md font-semibold text-brand-600 underline-offset-4 hover:underline dark:text-brand-300"
    >
      {children}
    </button>
  );
}

function LoginForm() {
  const signIn = useSessionStore((s) => s.signIn);
  const { openAuth, closeAuth } = useUiStore();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const invalid = loginError(email, password);
    setError(invalid);
    if (invalid) return;
    setBusy(true);
    const result = await signIn(email.trim(), password);
    setBusy(false);
    if (result.ok) closeAuth();
    else setError(result.message);
  }

  return (
    <form onSubmit={submit} noValidate className="space-y-4">
      <div className="flex items-center gap-3 rounded-2xl bg-gradient-to-r from-brand-500/10 to-violet-brand/10 px-4 py-3">
        <LogoMark size={36} />
        <p className="text-sm text-slate-600 dark:text-slate-300">{MESSAGES.auth_welcome}</p>
      </div>
      <TextField
        label={MESSAGES.auth_email_label}
        type="email"
        autoComplete="email"
        inputMode="email"
        placeholder={MESSAGES.auth_email_placeholder}
        value={email}
        onChange={(e) => setEmail(e.target.value)}
        data-autofocus
      />
      <PasswordField
        label={MESSAGES.auth_password_label}
        autoComplete="current-password"
        value={password}
        onChange={(e) => setPassword(e.target.value)}
      />
      <div className="-mt-1 flex justify-end text-sm">
        <LinkButton onClick={() => openAuth('forgot')}>{MESSAGES.auth_forgot_link}</LinkButton>
      </div>
      <FormError>{error}</FormError>
      <Button type="submit" className="w-full" disabled={busy}>
        {busy ? <Spinner /> : null}
        {busy ? MESSAGES.auth_signing_in : MESSAGES.nav_sign_in}
      </Button>
      <p className="text-center text-sm text-slate-600 dark:text-slate-400">
        {MESSAGES.auth_no_account} <LinkButton onClick={() => openAuth('register')}>{MESSAGES.auth_register}</LinkButton>
      </p>
    </form>
  );
}

function RegisterForm() {
  const signUp = useSessionStore((s) => s.signUp);
  const openAuth = useUiStore((s) => s.openAuth);
  const [fields, setFields] = useState({ email: '', password: '', confirm: '', firstName: '', lastName: '' });
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const set = (key: keyof typeof fields) => (e: { target: { value: string } }) =>
    setFields((f) => ({ ...f, [key]: e.target.value }));

  async function submit(event: FormEvent) {
    event.preventDefault();
    const invalid = registerError(fields);
    setError(invalid);
    if (invalid) return;
    setBusy(true);
    const result = await signUp({
      email: fields.email.trim(),
      password: fields.password,
      firstName: fields.firstName.trim(),
      lastName: fields.lastName.trim(),
    });
    setBusy(false);
    if (result.ok) openAuth('register-sent');
    else setError(result.message);
  }

  return (
    <form onSubmit={submit} noValidate className="space-y-4">
      <div className="grid grid-cols-2 gap-3">
        <TextField label={MESSAGES.auth_first_name_label} autoComplete="given-name" value={fields.firstName} onChange={set('firstName')} data-autofocus />
        <TextField label={MESSAGES.auth_last_name_label} autoComplete="family-name" value={fields.lastName} onChange={set('lastName')} />
      </div>
      <TextField
        label={MESSAGES.auth_email_label}
        type="email"
        autoComplete="email"
        inputMode="email"
        placeholder={MESSAGES.auth_email_placeholder}
        value={fields.email}
        onChange={set('email')}
      />
      <PasswordField label={MESSAGES.auth_password_label} autoComplete="new-password" value={fields.password} onChange={set('password')} />
      <PasswordField label={MESSAGES.reset_confirm_password} autoComplete="new-password" value={fields.confirm} onChange={set('confirm')} />
      <FormError>{error}</FormError>
      <Button type="submit" className="w-full" disabled={busy}>
        {busy ? <Spinner /> : null}
        {busy ? MESSAGES.auth_signing_up : MESSAGES.auth_register}
      </Button>
      <p className="text-center text-sm text-slate-600 dark:text-slate-400">
        {MESSAGES.auth_have_account} <LinkButton onClick={() => openAuth('login')}>{MESSAGES.nav_sign_in}</LinkButton>
      </p>
    </form>
  );
}

function ForgotForm() {
  const requestPasswordReset = useSessionStore((s) => s.requestPasswordReset);
  const openAuth = useUiStore((s) => s.openAuth);
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const invalid = forgotError(email);
    setError(invalid);
    if (invalid) return;
    setBusy(true);
    const result = await requestPasswordReset(email.trim());
    setBusy(false);
    if (result.ok) openAuth('reset-sent');
    else setError(result.code === 'reset_rate_limited' ? result.message : MESSAGES.reset_request_failed);
  }

  return (
    <form onSubmit={submit} noValidate className="space-y-4">
      <p className="text-sm leading-relaxed text-slate-600 dark:text-slate-300">{MESSAGES.auth_forgot_intro}</p>
      <TextField
        label={MESSAGES.auth_email_label}
        type="email"
        autoComplete="email"
        inputMode="email"
        placeholder={MESSAGES.auth_email_placeholder}
        value={email}
        onChange={(e) => setEmail(e.target.value)}
        data-autofocus
      />
      <FormError>{error}</FormError>
      <Button type="submit" className="w-full" disabled={busy}>
        {busy ? <Spinner /> : <MailIcon size={18} />}
        {busy ? MESSAGES.auth_sending : MESSAGES.auth_forgot_submit}
      </Button>
      <p className="text-center text-sm">
        <LinkButton onClick={() => openAuth('login')}>{MESSAGES.auth_back_to_login}</LinkButton>
      </p>
    </form>
  );
}

function SentNotice({ text }: { text: string }) {
  const openAuth = useUiStore((s) => s.openAuth);
  return (
    <div className="flex flex-col items-center py-4 text-center">
      <div className="mb-4 flex size-14 items-center justify-center rounded-2xl bg-emerald-500/10 text-emerald-500">
        <CheckCircleIcon size={30} />
      </div>
      <p className="max-w-sm text-[15px] leading-relaxed text-slate-600 dark:text-slate-300">{text}</p>
      <Button variant="secondary" className="mt-6" onClick={() => openAuth('login')}>
        {MESSAGES.auth_back_to_login}
      </Button>
    </div>
  );
}
