/**
 * The 'Nouveau message' toast (docs/product.md, Messages):
 * one at a time, a newer message replaces it; it hides after 6 s and is removed after a 300 ms
 * exit animation. The same message is never announced twice. While the pointer is on it or the
 * keyboard focus is in it, the 6 s are paused (the reader is reading or about to click), and what
 * was left of them resumes afterwards.
 */
import { create } from 'zustand';
import { SHELL_MESSAGES, type MessageCreatedEvent, TIMING, truncate } from '@moodmap/core';

/** What the toast shows: message id, sender name, sender avatar, content, conversation id, timestamp. */
export interface MessageToastData {
  messageId: string;
  conversationId: string;
  senderName: string;
  senderAvatar: string | null;
  content: string;
  timestamp: string;
}

type HoldReason = 'pointer' | 'focus';

interface MessageToastState {
  toast: MessageToastData | null;
  /** True during the exit animation. */
  leaving: boolean;
  show: (toast: MessageToastData) => void;
  hide: () => void;
  /** Pauses the auto-hide while the pointer is over it or the focus inside it. */
  hold: (by: HoldReason) => void;
  /** Resumes the auto-hide with the time that was left, once neither holds it. */
  release: (by: HoldReason) => void;
  /** Removes it at once (sign-out). */
  clear: () => void;
}

let hideTimer: ReturnType<typeof setTimeout> | null = null;
let removeTimer: ReturnType<typeof setTimeout> | null = null;
let lastAnnounced: string | null = null;
/** When the running hide timer fires (epoch ms), and how long was left when it was paused. */
let hideAt = 0;
let pausedLeft: number | null = null;
const holders = new Set<HoldReason>();

function clearTimers(): void {
  if (hideTimer) clearTimeout(hideTimer);
  if (removeTimer) clearTimeout(removeTimer);
  hideTimer = removeTimer = null;
  pausedLeft = null;
}

/** Starts the hide countdown, or keeps it paused while the toast is held. */
function countDown(ms: number, hide: () => void): void {
  if (holders.size > 0) {
    pausedLeft = ms;
    return;
  }
  hideAt = Date.now() + ms;
  hideTimer = setTimeout(hide, ms);
}

export const useMessageToast = create<MessageToastState>()((set, get) => ({
  toast: null,
  leaving: false,
  show: (toast) => {
    if (toast.messageId === lastAnnounced) return;
    lastAnnounced = toast.messageId;
    clearTimers();
    set({ toast, leaving: false });
    // A newer message replacing the toast under the pointer stays paused too.
    countDown(TIMING.messageToastMs, () => get().hide());
  },
  hold: (by) => {
    holders.add(by);
    if (!hideTimer || get().leaving) return;
    clearTimeout(hideTimer);
    hideTimer = null;
    pausedLeft = Math.max(0, hideAt - Date.now());
  },
  release: (by) => {
    holders.delete(by);
    if (holders.size > 0 || pausedLeft === null || !get().toast || get().leaving) return;
    const left = pausedLeft;
    pausedLeft = null;
    countDown(left, () => get().hide());
  },
  hide: () => {
    if (!get().toast || get().leaving) return;
    clearTimers();
    set({ leaving: true });
    removeTimer = setTimeout(() => {
      removeTimer = null;
      holders.clear(); // gone from the page: no pointerleave or blur will come
      set({ toast: null, leaving: false });
    }, TIMING.toastExitMs);
  },
  clear: () => {
    clearTimers();
    holders.clear();
    set({ toast: null, leaving: false });
  },
}));

/** The toast's text: the content cut to 60 characters plus '...', or '📷 Photo' for an image alone. */
export function toastContent(content: string, imageUrl: string | null): string {
  const text = content.replace(/\s+/g, ' ').trim();
  if (!text) return imageUrl ? SHELL_MESSAGES.messages_photo_preview : '';
  const cut = truncate(text, TIMING.messageToastCut, '');
  return cut === text ? text : `${cut.trimEnd()}...`;
}

export function toastFromEvent({ message, sender }: MessageCreatedEvent): MessageToastData {
  return {
    messageId: message.id,
    conversationId: message.conversationId,
    senderName: sender.nickname.trim() || SHELL_MESSAGES.message_toast_fallback_name,
    senderAvatar: sender.profilePhotoUrl,
    content: toastContent(message.content, message.imageUrl),
    timestamp: message.createdAt,
  };
}

/** Test hook. */
export function resetMessageToastForTests(): void {
  clearTimers();
  holders.clear();
  lastAnnounced = null;
  useMessageToast.setState({ toast: null, leaving: false });
}
