import type { ReactNode } from 'react';
import { MESSAGES } from '@moodmap/core';
import { useUiStore } from '../lib/ui-store.ts';
import { Button } from './Button.tsx';
import { LockIcon } from './icons.tsx';

/** What a visitor sees on a screen that needs an account, with a way in. */
export function SignedOutNotice({ title, message, icon }: { title?: string; message: string; icon?: ReactNode }) {
  const openAuth = useUiStore((s) => s.openAuth);
  return (
    <div className="flex min-h-[50vh] flex-col items-center justify-center px-6 py-12 text-center md:min-h-[22rem]">
      <div className="mb-5 flex size-16 items-center justify-center rounded-2xl bg-gradient-to-br from-brand-500/15 to-violet-brand/15 text-brand-600 ring-1 ring-brand-500/20 dark:text-brand-300">
        {icon ?? <LockIcon size={28} />}
      </div>
      {title ? <h2 className="mb-2 text-xl font-bold tracking-tight text-ink-900 dark:text-white">{title}</h2> : null}
      <p className="max-w-sm text-[15px] leading-relaxed text-slate-600 dark:text-slate-300">{message}</p>
      <Button className="mt-7 min-w-44" onClick={() => openAuth('login')}>
        {MESSAGES.nav_sign_in}
      </Button>
    </div>
  );
}
