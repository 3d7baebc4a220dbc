import { create } from 'zustand';
import { useSessionStore } from '../auth/session-store.ts';

/**
 * Conversations whose last message is unread and from the other party, excluding the open one
 * (spec §2 "Bottom navigation"). The messages feature keeps `count` up to date.
 */
interface UnreadState {
  count: number;
  setCount: (count: number) => void;
}

export const useUnreadStore = create<UnreadState>()((set) => ({
  count: 0,
  setCount: (count) => set({ count: Math.max(0, Math.floor(count)) }),
}));

/** A visitor has no conversations, so no badge. */
export function useUnreadCount(): number {
  const signedIn = useSessionStore((s) => s.user !== null);
  const count = useUnreadStore((s) => s.count);
  return signedIn ? count : 0;
}
