import { SHELL_MESSAGES } from '@moodmap/core';
import { LogoMark, Wordmark } from '../ui/Logo.tsx';
import { useSessionStore } from '../features/auth/session-store.ts';

/** The logo splash while the session initialises. */
export function Splash() {
  const initialising = useSessionStore((s) => s.status === 'initialising');
  if (!initialising) return null;
  return (
    <div
      data-testid="splash"
      role="status"
      aria-label={SHELL_MESSAGES.loading}
      className="fixed inset-0 z-[80] flex flex-col items-center justify-center gap-4 bg-gradient-to-br from-[#e8f6fd] via-[#f4f1ea] to-[#efe9ff] dark:from-sea-dark dark:via-[#15233a] dark:to-[#1f2a3a]"
    >
      <LogoMark size={88} className="animate-splash drop-shadow-xl" />
      <Wordmark className="text-3xl" />
      <span className="sr-only">{SHELL_MESSAGES.loading}</span>
    </div>
  );
}
