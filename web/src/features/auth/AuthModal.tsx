import type { ReactNode } from 'react';
import { MESSAGES } from '@moodmap/core';
import { type AuthMode, useUiStore } from '../../lib/ui-store.ts';
import { Button } from '../../ui/Button.tsx';
import { Dialog } from '../../ui/Dialog.tsx';
import { CheckCircleIcon, MailIcon } from '../../ui/icons.tsx';
import { ForgotForm } from './ForgotForm.tsx';
import { LoginForm } from './LoginForm.tsx';
import { RegisterForm } from './RegisterForm.tsx';

const TITLES: Record<AuthMode, string> = {
  login: MESSAGES.auth_login_title,
  register: MESSAGES.auth_register,
  forgot: MESSAGES.auth_forgot_title,
  'reset-sent': MESSAGES.auth_reset_sent_title,
  'register-sent': MESSAGES.auth_register_sent_title,
};

/** Login / register / forgot-password modal. */
export function AuthModal() {
  const mode = useUiStore((s) => s.authMode);
  const closeAuth = useUiStore((s) => s.closeAuth);
  if (!mode) return null;
  return (
    <Dialog title={TITLES[mode]} onClose={closeAuth} testId="auth-modal">
      <div data-auth-mode={mode} className="contents">
        {mode === 'login' ? <LoginForm /> : null}
        {mode === 'register' ? <RegisterForm /> : null}
        {mode === 'forgot' ? <ForgotForm /> : null}
        {mode === 'reset-sent' ? (
          <SentNotice icon={<CheckCircleIcon size={30} />} text={MESSAGES.auth_reset_sent} />
        ) : null}
        {mode === 'register-sent' ? (
          <SentNotice icon={<MailIcon size={30} />} text={MESSAGES.auth_register_sent} showEmail />
        ) : null}
      </div>
    </Dialog>
  );
}

/** The reset-email-sent and register-confirmation ('Vérifiez votre email') views. */
function SentNotice({ icon, text, showEmail = false }: { icon: ReactNode; text: string; showEmail?: boolean }) {
  const openAuth = useUiStore((s) => s.openAuth);
  const email = useUiStore((s) => s.authEmail);
  return (
    <div className="flex flex-col items-center py-4 text-center" data-testid="auth-sent">
      <div className="mb-4 flex size-14 items-center justify-center rounded-2xl bg-emerald-500/10 text-emerald-500">
        {icon}
      </div>
      {showEmail && email ? (
        <p className="mb-2 max-w-full truncate rounded-full bg-slate-100 px-3 py-1 text-sm font-semibold text-ink-900 dark:bg-ink-800 dark:text-white">
          {email}
        </p>
      ) : null}
      <p className="max-w-sm text-[15px] leading-relaxed text-slate-600 dark:text-slate-300">{text}</p>
      <Button variant="secondary" className="mt-6" onClick={() => openAuth('login')}>
        {MESSAGES.auth_back_to_login}
      </Button>
    </div>
  );
}
