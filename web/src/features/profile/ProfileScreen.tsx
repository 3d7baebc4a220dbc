import { Link, useNavigate } from 'react-router';
import { MESSAGES } from '@moodmap/core';
import { ModalPanel } from '../../app/ModalPanel.tsx';
import { useSessionStore } from '../../app/session-store.ts';
import { Button } from '../../ui/Button.tsx';
import { LogoutIcon, PlusIcon, ShieldIcon, UserIcon } from '../../ui/icons.tsx';
import { SignedOutNotice } from '../../ui/SignedOutNotice.tsx';
import { Avatar } from './Avatar.tsx';

const ACTION =
  'inline-flex min-h-11 items-center justify-center gap-2 rounded-xl bg-gradient-to-r from-brand-500 to-violet-brand px-5 text-sm font-semibold text-white shadow-md shadow-brand-500/25 transition hover:brightness-105 active:brightness-95';

function memberSince(iso: string | null | undefined): string | null {
  if (!iso) return null;
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? null : date.toLocaleDateString('fr-FR', { day: 'numeric', month: 'long', year: 'numeric' });
}

/** /profile — own profile (spec §2 "Own profile"); posts, photo and nickname editing come with their issues. */
export function ProfileScreen() {
  const user = useSessionStore((s) => s.user);
  const signOut = useSessionStore((s) => s.signOut);
  const navigate = useNavigate();

  if (!user) {
    return (
      <ModalPanel title={MESSAGES.nav_profile}>
        <SignedOutNotice message={MESSAGES.profile_signed_out} icon={<UserIcon size={28} />} />
      </ModalPanel>
    );
  }

  const fullName = [user.firstName, user.lastName].filter(Boolean).join(' ');
  const since = memberSince(user.createdAt);

  return (
    <ModalPanel title={MESSAGES.nav_profile}>
      <div className="px-5 py-6 md:px-7" data-testid="own-profile">
        <div className="flex items-center gap-4">
          <Avatar url={user.profilePhotoUrl ?? user.avatarUrl} name={user.nickname} size={72} />
          <div className="min-w-0">
            <p className="truncate text-xl font-bold text-ink-900 dark:text-white" data-testid="profile-nickname">
              {user.nickname}
            </p>
            {fullName ? <p className="truncate text-sm font-medium text-slate-700 dark:text-slate-300">{fullName}</p> : null}
            <p className="truncate text-sm text-slate-500 dark:text-slate-400" data-testid="profile-email">
              {user.email}
            </p>
            {since ? (
              <p className="mt-0.5 text-xs text-slate-400 dark:text-slate-500">
                {MESSAGES.profile_member_since} {since}
              </p>
            ) : null}
          </div>
        </div>
        {user.bio ? <p className="mt-5 text-[15px] whitespace-pre-line text-slate-700 dark:text-slate-300">{user.bio}</p> : null}
        <div className="mt-8 grid gap-3 sm:grid-cols-2">
          {/* Spec §6: the admin account sees 'Admin' (to /admin) instead of 'Publier' (to /create). */}
          {user.isAdmin ? (
            <Link to="/admin" className={ACTION} data-testid="profile-admin">
              <ShieldIcon size={18} />
              {MESSAGES.profile_admin}
            </Link>
          ) : (
            <Link to="/create" className={ACTION} data-testid="profile-create">
              <PlusIcon size={18} />
              {MESSAGES.nav_create}
            </Link>
          )}
          <Button
            variant="secondary"
            data-testid="sign-out"
            onClick={() => {
              // The local sign-out is immediate; the server's revocation finishes in the background.
              void signOut();
              navigate('/');
            }}
          >
            <LogoutIcon size={18} />
            {MESSAGES.profile_sign_out}
          </Button>
        </div>
      </div>
    </ModalPanel>
  );
}
