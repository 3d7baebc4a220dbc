/**
 * The 'Nouveau message' toast (spec §2 "New-message toast", §4 "Message toast", §9 "Timing"):
 * one at a time, a newer message replaces it; it hides after 6 s and is removed after a 300 ms
 * exit animation. The same message is never announced twice.
 */
import { create } from 'zustand';
import { MESSAGES, type MessageCreatedEvent, TIMING, truncate } from '@moodmap/core';

/** Spec §3 "Message toast": message id, sender name, sender avatar, content, conversation id, timestamp. */
export interface MessageToastData {
  messageId: string;
  conversationId: string;
  senderName: string;
  senderAvatar: string | null;
  content: string;
  timestamp: string;
}

interface MessageToastState {
  toast: MessageToastData | null;
  /** True during the exit animation. */
  leaving: boolean;
  show: (toast: MessageToastData) => void;
  hide: () => void;
  /** Removes it at once (sign-out). */
  clear: () => void;
}

let hideTimer: ReturnType<typeof setTimeout> | null = null;
let removeTimer: ReturnType<typeof setTimeout> | null = null;
let lastAnnounced: string | null = null;

function clearTimers(): void {
  if (hideTimer) clearTimeout(hideTimer);
  if (removeTimer) clearTimeout(removeTimer);
  hideTimer = removeTimer = null;
}

export const useMessageToast = create<MessageToastState>()((set, get) => ({
  toast: null,
  leaving: false,
  show: (toast) => {
    if (toast.messageId === lastAnnounced) return;
    lastAnnounced = toast.messageId;
    clearTimers();
    set({ toast, leaving: false });
    hideTimer = setTimeout(() => get().hide(), TIMING.messageToastMs);
  },
  hide: () => {
    if (!get().toast || get().leaving) return;
    clearTimers();
    set({ leaving: true });
    removeTimer = setTimeout(() => {
      removeTimer = null;
      set({ toast: null, leaving: false });
    }, TIMING.toastExitMs);
  },
  clear: () => {
    clearTimers();
    set({ toast: null, leaving: false });
  },
}));

/** The toast's text: the content cut to 60 characters plus '...', or '📷 Photo' for an image alone. */
export function toastContent(content: string, imageUrl: string | null): string {
  const text = content.replace(/\s+/g, ' ').trim();
  if (!text) return imageUrl ? MESSAGES.messages_photo_preview : '';
  const cut = truncate(text, TIMING.messageToastCut, '');
  return cut === text ? text : `${cut.trimEnd()}...`;
}

export function toastFromEvent({ message, sender }: MessageCreatedEvent): MessageToastData {
  return {
    messageId: message.id,
    conversationId: message.conversationId,
    senderName: sender.nickname.trim() || MESSAGES.message_toast_fallback_name,
    senderAvatar: sender.profilePhotoUrl,
    content: toastContent(message.content, message.imageUrl),
    timestamp: message.createdAt,
  };
}

/** Test hook. */
export function resetMessageToastForTests(): void {
  clearTimers();
  lastAnnounced = null;
  useMessageToast.setState({ toast: null, leaving: false });
}
