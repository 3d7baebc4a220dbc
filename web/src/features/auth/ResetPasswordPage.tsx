import { type FormEvent, type ReactNode, useEffect, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { MESSAGES, TIMING } from '@moodmap/core';
import { useSessionStore } from './session-store.ts';
import { Button, Spinner } from '../../ui/Button.tsx';
import { FormError, PasswordField } from '../../ui/Field.tsx';
import { AlertIcon, ArrowLeftIcon, CheckCircleIcon } from '../../ui/icons.tsx';
import { LogoMark, Wordmark } from '../../ui/Logo.tsx';
import { resetError, resetFailureMessage } from './validation.ts';

/**
 * Tokens of a valid reset link: a recovery type plus both tokens.
 * A used or expired link arrives as `#error=link_invalid&type=recovery`: no tokens, so null.
 */
export function resetTokens(params: URLSearchParams): { accessToken: string; refreshToken: string } | null {
  const accessToken = params.get('access_token');
  const refreshToken = params.get('refresh_token');
  if (params.get('type') !== 'recovery' || params.has('error') || !accessToken || !refreshToken) return null;
  return { accessToken, refreshToken };
}

function Screen({ children }: { children: ReactNode }) {
  return (
    <main className="h-full overflow-y-auto bg-gradient-to-br from-sea-light via-[#e6f2fb] to-[#f4f1ea] dark:from-sea-dark dark:via-[#132238] dark:to-[#1f2a3a]">
      <div className="flex min-h-full items-center justify-center px-4 py-10">
        <div className="w-full max-w-md animate-pop-in rounded-3xl bg-white/90 p-7 shadow-2xl ring-1 ring-black/5 backdrop-blur md:p-9 dark:bg-ink-900/90 dark:ring-white/10">
          <div className="mb-7 flex items-center gap-2.5">
            <LogoMark size={36} />
            <Wordmark className="text-xl" />
          </div>
          {children}
        </div>
      </div>
    </main>
  );
}

function HomeLink() {
  return (
    <Link
      to="/"
      className="inline-flex items-center gap-1.5 rounded-md text-sm font-semibold text-brand-600 underline-offset-4 hover:underline dark:text-brand-300"
    >
      <ArrowLeftIcon size={16} />
      {MESSAGES.reset_home_link}
    </Link>
  );
}

/** Full-screen reset-password route, target of the reset e-mail (docs/product.md, Accounts). */
export function ResetPasswordPage() {
  const [params, setParams] = useSearchParams();
  const navigate = useNavigate();
  const resetPassword = useSessionStore((s) => s.resetPassword);
  const tokens = resetTokens(params);
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState(false);

  useEffect(() => {
    if (!done) return;
    const timer = setTimeout(() => navigate('/', { replace: true }), TIMING.resetRedirectMs);
    return () => clearTimeout(timer);
  }, [done, navigate]);

  if (done) {
    return (
      <Screen>
        <div className="flex flex-col items-center text-center" role="status">
          <div className="mb-5 flex size-16 items-center justify-center rounded-full bg-emerald-500/10 text-emerald-500">
            <CheckCircleIcon size={36} />
          </div>
          <h1 className="mb-2 text-2xl font-bold tracking-tight text-ink-900 dark:text-white">
            {MESSAGES.reset_success}
          </h1>
          <p className="mb-7 text-sm text-slate-500 dark:text-slate-400">{MESSAGES.reset_redirecting}</p>
          <Button className="w-full" onClick={() => navigate('/', { replace: true })}>
            {MESSAGES.reset_continue}
          </Button>
        </div>
      </Screen>
    );
  }

  if (!tokens) {
    return (
      <Screen>
        <div className="mb-5 flex size-12 items-center justify-center rounded-2xl bg-amber-500/10 text-amber-500">
          <AlertIcon size={26} />
        </div>
        <h1 className="mb-3 text-2xl font-bold tracking-tight text-ink-900 dark:text-white">{MESSAGES.reset_title}</h1>
        <p role="alert" className="mb-7 text-[15px] leading-relaxed text-slate-600 dark:text-slate-300">
          {MESSAGES.reset_link_invalid}
        </p>
        <HomeLink />
      </Screen>
    );
  }

  const mismatch = password !== '' && confirm !== '' && password !== confirm;
  const disabled = busy || !password || !confirm || password !== confirm;

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (disabled || !tokens) return;
    const invalid = resetError(password, confirm);
    setError(invalid);
    if (invalid) return;
    setBusy(true);
    const result = await resetPassword(tokens, password);
    setBusy(false);
    if (result.ok) {
      setDone(true);
      // The link's tokens are spent: they leave the address bar and the history.
      setParams({}, { replace: true });
    } else {
      setError(resetFailureMessage(result.code, result.message));
    }
  }

  return (
    <Screen>
      <h1 className="mb-1.5 text-2xl font-bold tracking-tight text-ink-900 dark:text-white">{MESSAGES.reset_title}</h1>
      <p className="mb-6 text-sm text-slate-500 dark:text-slate-400">{MESSAGES.reset_intro}</p>
      <form onSubmit={submit} noValidate className="space-y-4">
        <PasswordField
          label={MESSAGES.reset_new_password}
          autoComplete="new-password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          autoFocus
        />
        <PasswordField
          label={MESSAGES.reset_confirm_password}
          autoComplete="new-password"
          value={confirm}
          onChange={(e) => setConfirm(e.target.value)}
          aria-invalid={mismatch}
        />
        {mismatch ? (
          <p className="text-sm font-medium text-rose-600 dark:text-rose-400">{MESSAGES.password_mismatch}</p>
        ) : null}
        <FormError>{error}</FormError>
        <Button type="submit" className="w-full" disabled={disabled}>
          {busy ? <Spinner /> : null}
          {busy ? MESSAGES.reset_busy : MESSAGES.reset_submit}
        </Button>
      </form>
      <div className="mt-6 text-center">
        <HomeLink />
      </div>
    </Screen>
  );
}
