/** Block / unblock another person, on their profile and on their post's card. */
import { MESSAGES } from '@moodmap/core';
import { Button, Spinner } from '../../ui/Button.tsx';
import { useSessionStore } from '../auth/session-store.ts';
import { useToggleBlock } from './moderation-api.ts';

export function BlockButton({ userId, compact = false }: { userId: string; compact?: boolean }) {
  const me = useSessionStore((s) => s.user?.id ?? null);
  const { isBlocked, toggle, busy } = useToggleBlock(userId);
  if (!me || me === userId) return null;
  const label = isBlocked ? MESSAGES.unblock_user : MESSAGES.block_user;
  if (compact) {
    return (
      <button
        type="button"
        onClick={toggle}
        disabled={busy}
        data-testid="block-user"
        className="rounded-full px-2 py-1 text-xs font-semibold text-slate-500 hover:bg-slate-100 hover:text-rose-600 dark:text-slate-400 dark:hover:bg-white/10"
      >
        {label}
      </button>
    );
  }
  return (
    <Button variant="secondary" className="mt-3 w-full" onClick={toggle} disabled={busy} data-testid="block-user">
      {busy ? <Spinner /> : null}
      {label}
    </Button>
  );
}
