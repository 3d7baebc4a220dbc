import { MESSAGES } from '@moodmap/core';
import { ModalPanel } from '../../app/ModalPanel.tsx';
import { useSessionStore } from '../../app/session-store.ts';
import { ChatIcon } from '../../ui/icons.tsx';
import { SignedOutNotice } from '../../ui/SignedOutNotice.tsx';

/** /messages (spec §2 "Messages"). */
export function MessagesScreen() {
  const signedIn = useSessionStore((s) => s.user !== null);
  return (
    <ModalPanel title={MESSAGES.nav_messages}>
      {signedIn ? (
        <div className="flex min-h-[50vh] flex-col items-center justify-center px-6 py-12 text-center md:min-h-[22rem]">
          <div className="mb-5 flex size-16 items-center justify-center rounded-2xl bg-brand-500/10 text-brand-600 dark:text-brand-300">
            <ChatIcon size={30} />
          </div>
          <p className="mb-2 text-lg font-bold text-ink-900 dark:text-white">{MESSAGES.messages_empty}</p>
          <p className="max-w-sm text-sm text-slate-600 dark:text-slate-400">{MESSAGES.messages_empty_hint}</p>
        </div>
      ) : (
        <SignedOutNotice message={MESSAGES.messages_signed_out} icon={<ChatIcon size={28} />} />
      )}
    </ModalPanel>
  );
}
