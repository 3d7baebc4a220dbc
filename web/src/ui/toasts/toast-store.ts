import { create } from 'zustand';
import { TIMING, TOAST_DURATION_MS, type ToastType } from '@moodmap/core';

/** A generic notification toast. */
export interface Toast {
  id: string;
  type: ToastType;
  title?: string;
  message: string;
  /** Milliseconds before auto-dismiss; 0 keeps it until closed. */
  duration: number;
  /** True during the 300 ms exit animation. */
  leaving: boolean;
}

export interface ToastOptions {
  title?: string;
  /** Overrides the style's default duration (e.g. 8 s for geolocation errors). */
  duration?: number;
}

interface ToastState {
  toasts: Toast[];
  show: (type: ToastType, message: string, options?: ToastOptions) => string;
  dismiss: (id: string) => void;
}

let counter = 0;
const timers = new Map<string, ReturnType<typeof setTimeout>>();

export const useToastStore = create<ToastState>()((set, get) => ({
  toasts: [],
  show: (type, message, options = {}) => {
    const id = `toast-${++counter}`;
    const duration = options.duration ?? TOAST_DURATION_MS[type];
    set({ toasts: [...get().toasts, { id, type, title: options.title, message, duration, leaving: false }] });
    if (duration > 0)
      timers.set(
        id,
        setTimeout(() => get().dismiss(id), duration),
      );
    return id;
  },
  dismiss: (id) => {
    const timer = timers.get(id);
    if (timer) clearTimeout(timer);
    timers.delete(id);
    const toast = get().toasts.find((t) => t.id === id);
    if (!toast || toast.leaving) return;
    set({ toasts: get().toasts.map((t) => (t.id === id ? { ...t, leaving: true } : t)) });
    setTimeout(() => set({ toasts: get().toasts.filter((t) => t.id !== id) }), TIMING.toastExitMs);
  },
}));

/** Shortcuts: `toast.error(MESSAGES.geo_denied, { duration: 8000 })`. */
export const toast = {
  success: (message: string, options?: ToastOptions) => useToastStore.getState().show('success', message, options),
  error: (message: string, options?: ToastOptions) => useToastStore.getState().show('error', message, options),
  warning: (message: string, options?: ToastOptions) => useToastStore.getState().show('warning', message, options),
  info: (message: string, options?: ToastOptions) => useToastStore.getState().show('info', message, options),
  dismiss: (id: string) => useToastStore.getState().dismiss(id),
};
