import { useEffect } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { MESSAGES } from '@moodmap/core';
import { ModalPanel } from '../../app/ModalPanel.tsx';
import { useSessionStore } from '../../app/session-store.ts';
import { ChatIcon } from '../../ui/icons.tsx';
import { SignedOutNotice } from '../../ui/SignedOutNotice.tsx';
import type { MessagesNavigationState } from './contact.ts';
import { useMessagesSelection } from './messages-store.ts';

export const CONVERSATION_PARAM = 'conversation';

/**
 * `?conversation={id}` selects a conversation (with the draft passed in navigation state), then
 * the address is rewritten to plain /messages (spec §2 "Messages").
 */
function useConversationParam(): void {
  const [params] = useSearchParams();
  const location = useLocation();
  const navigate = useNavigate();
  const select = useMessagesSelection((s) => s.select);
  const id = params.get(CONVERSATION_PARAM);
  useEffect(() => {
    if (id === null) return;
    const state = (location.state ?? {}) as MessagesNavigationState;
    if (id) {
      select(id, {
        draft: typeof state.prefill === 'string' ? state.prefill : undefined,
        otherNickname: typeof state.nickname === 'string' ? state.nickname : undefined,
      });
    }
    navigate({ pathname: location.pathname, hash: location.hash }, { replace: true, state: null });
  }, [id, location.state, location.pathname, location.hash, navigate, select]);
}

/**
 * /messages (spec §2 "Messages"). The list and the chat arrive with the messaging issue; until
 * then the screen keeps the selection and its draft, and shows the empty states.
 */
export function MessagesScreen() {
  const signedIn = useSessionStore((s) => s.user !== null);
  const selected = useMessagesSelection((s) => s.conversationId);
  useConversationParam();
  return (
    <ModalPanel title={MESSAGES.nav_messages}>
      {signedIn ? (
        <div className="flex min-h-[50vh] md:min-h-[26rem]" data-testid="messages-screen" data-conversation-id={selected ?? undefined}>
          <aside
            className={`flex-col items-center justify-center border-slate-100 px-6 py-12 text-center md:flex md:w-80 md:shrink-0 md:border-r dark:border-white/5 ${selected ? 'hidden' : 'flex w-full'}`}
            data-testid="messages-list"
          >
            <div className="mb-5 flex size-16 items-center justify-center rounded-2xl bg-brand-500/10 text-brand-600 dark:text-brand-300">
              <ChatIcon size={30} />
            </div>
            <p className="mb-2 text-lg font-bold text-ink-900 dark:text-white">{MESSAGES.messages_empty}</p>
            <p className="max-w-sm text-sm text-slate-600 dark:text-slate-400">{MESSAGES.messages_empty_hint}</p>
          </aside>
          <section
            className={`min-w-0 flex-1 items-center justify-center px-6 py-12 text-center md:flex ${selected ? 'flex' : 'hidden'}`}
            data-testid="messages-chat"
          >
            <p className="max-w-xs text-[15px] text-slate-500 dark:text-slate-400">{MESSAGES.messages_select}</p>
          </section>
        </div>
      ) : (
        <SignedOutNotice message={MESSAGES.messages_signed_out} icon={<ChatIcon size={28} />} />
      )}
    </ModalPanel>
  );
}
