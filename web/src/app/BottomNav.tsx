import type { ReactNode } from 'react';
import { NavLink } from 'react-router';
import { SHELL_MESSAGES } from '@moodmap/core';
import { ChatIcon, MapIcon, PlusIcon, UserIcon } from '../ui/icons.tsx';
import { useSessionStore } from '../features/auth/session-store.ts';
import { useUiStore } from '../lib/ui-store.ts';
import { MessagesBadge } from './messaging.tsx';

const ITEM =
  'group relative flex min-w-0 flex-1 flex-col items-center justify-center gap-0.5 rounded-xl px-1 py-1.5 text-[11px] font-semibold whitespace-nowrap transition md:min-w-20 md:flex-none md:px-2 md:text-xs';
const IDLE = 'text-slate-500 hover:text-ink-900 dark:text-slate-400 dark:hover:text-white';
const ACTIVE = 'text-brand-600 dark:text-brand-300';

function Item({
  to,
  label,
  icon,
  end = false,
  testId,
}: {
  to: string;
  label: string;
  icon: ReactNode;
  end?: boolean;
  testId: string;
}) {
  return (
    <NavLink to={to} end={end} data-testid={testId} className={({ isActive }) => `${ITEM} ${isActive ? ACTIVE : IDLE}`}>
      {({ isActive }) => (
        <>
          <span
            className={`flex h-8 w-12 items-center justify-center rounded-full transition ${isActive ? 'bg-brand-500/12 dark:bg-brand-400/15' : ''}`}
          >
            {icon}
          </span>
          <span>{label}</span>
        </>
      )}
    </NavLink>
  );
}

/** The bottom navigation's four entries. */
export function BottomNav() {
  const signedIn = useSessionStore((s) => s.user !== null);
  const openAuth = useUiStore((s) => s.openAuth);

  return (
    <nav
      aria-label={SHELL_MESSAGES.nav_label}
      data-testid="bottom-nav"
      data-map-overlay=""
      className="glass fixed inset-x-0 bottom-0 z-50 flex h-[calc(4.25rem+env(safe-area-inset-bottom))] items-stretch justify-around rounded-none border-x-0 border-b-0 px-2 pt-1.5 pb-[calc(0.375rem+env(safe-area-inset-bottom))] md:inset-x-auto md:bottom-5 md:left-1/2 md:h-auto md:-translate-x-1/2 md:gap-1 md:rounded-2xl md:border md:p-1.5"
    >
      {signedIn ? (
        <Item to="/profile" label={SHELL_MESSAGES.nav_profile} icon={<UserIcon />} testId="nav-profile" />
      ) : (
        <button type="button" onClick={() => openAuth('login')} data-testid="nav-profile" className={`${ITEM} ${IDLE}`}>
          <span className="flex h-8 w-12 items-center justify-center rounded-full">
            <UserIcon />
          </span>
          <span>{SHELL_MESSAGES.nav_sign_in}</span>
        </button>
      )}
      <Item to="/" end label={SHELL_MESSAGES.nav_map} icon={<MapIcon />} testId="nav-map" />
      <Item
        to="/messages"
        label={SHELL_MESSAGES.nav_messages}
        testId="nav-messages"
        icon={
          <span className="relative">
            <ChatIcon />
            <MessagesBadge className="absolute -top-1.5 -right-2.5" />
          </span>
        }
      />
      <NavLink
        to="/create"
        data-testid="nav-create"
        className={({ isActive }) => `${ITEM} ${isActive ? ACTIVE : IDLE}`}
      >
        <span className="flex h-8 w-12 items-center justify-center rounded-full bg-gradient-to-br from-brand-500 to-violet-brand text-white shadow-md shadow-brand-500/30 transition group-hover:brightness-110">
          <PlusIcon size={20} strokeWidth={2.6} />
        </span>
        <span>{SHELL_MESSAGES.nav_create}</span>
      </NavLink>
    </nav>
  );
}
