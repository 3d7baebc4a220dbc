/** The people I blocked, each with 'Débloquer', in my own profile. */
import { MESSAGES } from '@moodmap/core';
import { BlockButton } from './BlockButton.tsx';
import { useBlocked } from './moderation-api.ts';

export function BlockedList() {
  const blocked = useBlocked();
  return (
    <section className="mt-8" data-testid="blocked-list">
      <h3 className="mb-3 text-base font-bold text-ink-900 dark:text-white">{MESSAGES.blocked_list_title}</h3>
      {!blocked.data?.length ? (
        <p className="text-sm text-slate-500 dark:text-slate-400">{MESSAGES.blocked_list_empty}</p>
      ) : (
        <ul className="divide-y divide-slate-100 rounded-2xl ring-1 ring-slate-200 dark:divide-white/5 dark:ring-white/10">
          {blocked.data.map((b) => (
            <li key={b.id} className="flex items-center justify-between px-4 py-2.5">
              <span className="truncate font-medium">{b.nickname}</span>
              <BlockButton userId={b.id} compact />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
