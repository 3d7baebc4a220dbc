import { create } from 'zustand';

/**
 * Which conversation /messages shows, and the draft to start it with. `?conversation={id}`
 * selects one and is then taken out of the address; "Contacter" on a post
 * passes a prefilled draft quoting the post.
 */
export interface MessagesSelection {
  conversationId: string | null;
  /** The composer's starting text, if the conversation was opened from a post. */
  draft: string;
  /** The other person's nickname, when known (for the empty conversation's text). */
  otherNickname: string | null;
}

interface MessagesSelectionState extends MessagesSelection {
  select: (conversationId: string, options?: { draft?: string; otherNickname?: string | null }) => void;
  setDraft: (draft: string) => void;
  clear: () => void;
}

const EMPTY: MessagesSelection = { conversationId: null, draft: '', otherNickname: null };

export const useMessagesSelection = create<MessagesSelectionState>()((set, get) => ({
  ...EMPTY,
  select: (conversationId, options = {}) =>
    set({
      conversationId,
      // A new selection without a draft keeps the one typed for the same conversation.
      draft: options.draft ?? (get().conversationId === conversationId ? get().draft : ''),
      otherNickname: options.otherNickname ?? (get().conversationId === conversationId ? get().otherNickname : null),
    }),
  setDraft: (draft) => set({ draft }),
  clear: () => set(EMPTY),
}));

/**
 * The conversation the user has in front of them: /messages is shown with it selected. The
 * badge leaves it out and no toast announces its messages.
 */
export const useOpenConversation = create<{ openId: string | null; setOpen: (id: string | null) => void }>()((set) => ({
  openId: null,
  setOpen: (openId) => set({ openId }),
}));

/** The open conversation, if the tab is in the foreground. */
export function visibleConversationId(): string | null {
  if (typeof document !== 'undefined' && document.visibilityState === 'hidden') return null;
  return useOpenConversation.getState().openId;
}
