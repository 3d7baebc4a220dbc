import { useEffect } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { MESSAGES } from '@moodmap/core';
import { ModalPanel } from '../../ui/ModalPanel.tsx';
import { useSessionStore } from '../auth/session-store.ts';
import { ChatIcon } from '../../ui/icons.tsx';
import { SignedOutNotice } from '../../ui/SignedOutNotice.tsx';
import { ChatView } from './ChatView.tsx';
import type { MessagesNavigationState } from './contact.ts';
import { ConversationList } from './ConversationList.tsx';
import { useMessageToast } from './message-toast-store.ts';
import { useMessagesSelection, useOpenConversation } from './messages-store.ts';

export const CONVERSATION_PARAM = 'conversation';

/**
 * `?conversation={id}` selects a conversation (with the draft passed in navigation state), then
 * the address is rewritten to plain /messages.
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
    void navigate({ pathname: location.pathname, hash: location.hash }, { replace: true, state: null });
  }, [id, location.state, location.pathname, location.hash, navigate, select]);
}

/** While shown with a conversation selected, that one is "open": no badge count, no toast for it. */
function useOpenWhileShown(id: string | null): void {
  const setOpen = useOpenConversation((s) => s.setOpen);
  useEffect(() => {
    setOpen(id);
    const toast = useMessageToast.getState();
    if (id && toast.toast?.conversationId === id) toast.hide();
    return () => setOpen(null);
  }, [id, setOpen]);
}

/**
 * /messages: the conversations on the left (20rem) and the chat on the
 * right on wide screens, 80% of the viewport high; on mobile the list or the chat.
 */
export function MessagesScreen() {
  const me = useSessionStore((s) => s.user?.id ?? null);
  const selected = useMessagesSelection((s) => s.conversationId);
  useConversationParam();
  useOpenWhileShown(me ? selected : null);
  return (
    <ModalPanel title={MESSAGES.nav_messages} wide={me !== null}>
      {me ? (
        <div className="flex min-h-0 flex-1" data-testid="messages-screen" data-conversation-id={selected ?? undefined}>
          <ConversationList me={me} selectedId={selected} className={selected ? 'hidden md:flex' : 'flex w-full'} />
          <section
            className={`min-w-0 flex-1 flex-col md:flex ${selected ? 'flex' : 'hidden'}`}
            data-testid="messages-chat"
          >
            {selected ? (
              <ChatView key={selected} conversationId={selected} me={me} />
            ) : (
              <div className="flex flex-1 flex-col items-center justify-center gap-4 bg-slate-50/70 px-6 text-center dark:bg-[#10182a]">
                <div className="flex size-16 items-center justify-center rounded-full bg-white text-brand-500 shadow-sm ring-1 ring-slate-200 dark:bg-ink-800 dark:text-brand-300 dark:ring-white/10">
                  <ChatIcon size={28} />
                </div>
                <p className="max-w-xs text-[15px] text-slate-500 dark:text-slate-400">{MESSAGES.messages_select}</p>
              </div>
            )}
          </section>
        </div>
      ) : (
        <SignedOutNotice message={MESSAGES.messages_signed_out} icon={<ChatIcon size={28} />} />
      )}
    </ModalPanel>
  );
}
