import { useNavigate } from 'react-router';
import { MESSAGES } from '@moodmap/core';
import { ModalPanel } from '../../app/ModalPanel.tsx';
import { useSessionStore } from '../../app/session-store.ts';
import { Button } from '../../ui/Button.tsx';
import { LogoutIcon, UserIcon } from '../../ui/icons.tsx';
import { SignedOutNotice } from '../../ui/SignedOutNotice.tsx';
import { Avatar } from './Avatar.tsx';

/** /profile — own profile (spec §2 "Own profile"). */
export function ProfileScreen() {
  const user = useSessionStore((s) => s.user);
  const signOut = useSessionStore((s) => s.signOut);
  const navigate = useNavigate();

  return (
    <ModalPanel title={MESSAGES.nav_profile}>
      {user ? (
        <div className="px-5 py-6 md:px-7">
          <div className="flex items-center gap-4">
            <Avatar url={user.profilePhotoUrl} name={user.nickname} size={72} />
            <div className="min-w-0">
              <p className="truncate text-xl font-bold text-ink-900 dark:text-white">{user.nickname}</p>
              <p className="truncate text-sm text-slate-500 dark:text-slate-400">{user.email}</p>
            </div>
          </div>
          {user.bio ? <p className="mt-5 text-[15px] text-slate-700 dark:text-slate-300">{user.bio}</p> : null}
          <Button
            variant="secondary"
            className="mt-8 w-full"
            onClick={() => {
              void signOut().then(() => navigate('/'));
            }}
          >
            <LogoutIcon size={18} />
            {MESSAGES.profile_sign_out}
          </Button>
        </div>
      ) : (
        <SignedOutNotice message={MESSAGES.profile_signed_out} icon={<UserIcon size={28} />} />
      )}
    </ModalPanel>
  );
}
