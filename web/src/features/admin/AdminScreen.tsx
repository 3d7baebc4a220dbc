import { MESSAGES, t } from '@moodmap/core';
import { ModalPanel } from '../../app/ModalPanel.tsx';
import { useSessionStore } from '../../app/session-store.ts';
import { ShieldIcon } from '../../ui/icons.tsx';
import { SignedOutNotice } from '../../ui/SignedOutNotice.tsx';

/** /admin (spec §2 "Administration panel"): visitors and non-staff are refused. */
export function AdminScreen() {
  const signedIn = useSessionStore((s) => s.user !== null);
  return (
    <ModalPanel title={MESSAGES.admin_title}>
      {signedIn ? (
        // Roles arrive with the admin feature; until then every account has the default role 'user'.
        <div className="flex min-h-[50vh] flex-col items-center justify-center px-6 py-12 text-center md:min-h-[22rem]">
          <div className="mb-5 flex size-16 items-center justify-center rounded-2xl bg-rose-500/10 text-rose-500">
            <ShieldIcon size={30} />
          </div>
          <h2 className="mb-2 text-xl font-bold text-ink-900 dark:text-white">{MESSAGES.admin_denied_title}</h2>
          <p className="max-w-sm text-[15px] text-slate-600 dark:text-slate-300">{MESSAGES.admin_denied}</p>
          <p className="mt-3 rounded-full bg-slate-100 px-3 py-1 text-sm text-slate-600 dark:bg-ink-800 dark:text-slate-300">
            {t('admin_current_role', { role: 'user' })}
          </p>
        </div>
      ) : (
        <SignedOutNotice
          title={MESSAGES.admin_auth_required_title}
          message={MESSAGES.admin_auth_required}
          icon={<ShieldIcon size={28} />}
        />
      )}
    </ModalPanel>
  );
}
