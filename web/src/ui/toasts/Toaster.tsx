import type { ToastType } from '@moodmap/core';
import { AlertIcon, CheckCircleIcon, InfoIcon, XCircleIcon } from '../icons.tsx';
import { CloseButton } from '../DialogHeader.tsx';
import { useToastStore } from './toast-store.ts';

const STYLE: Record<ToastType, { icon: typeof InfoIcon; accent: string; bar: string }> = {
  success: { icon: CheckCircleIcon, accent: 'text-emerald-500', bar: 'bg-emerald-500' },
  error: { icon: XCircleIcon, accent: 'text-rose-500', bar: 'bg-rose-500' },
  warning: { icon: AlertIcon, accent: 'text-amber-500', bar: 'bg-amber-500' },
  info: { icon: InfoIcon, accent: 'text-brand-500', bar: 'bg-brand-500' },
};

/** Notification toasts, top right. */
export function Toaster() {
  const toasts = useToastStore((s) => s.toasts);
  const dismiss = useToastStore((s) => s.dismiss);
  return (
    <div
      className="toast-region pointer-events-none z-[70] flex flex-col items-end gap-2"
      aria-live="polite"
      aria-relevant="additions"
    >
      {toasts.map((t) => {
        const { icon: Icon, accent, bar } = STYLE[t.type];
        return (
          <div
            key={t.id}
            // Errors and warnings interrupt; the others are read by the polite region around them.
            role={t.type === 'error' || t.type === 'warning' ? 'alert' : undefined}
            data-testid={`toast-${t.type}`}
            className={`glass pointer-events-auto relative flex w-full items-start gap-3 overflow-hidden rounded-2xl py-3 pr-2 pl-4 ${t.leaving ? 'animate-toast-out' : 'animate-toast-in'}`}
          >
            <span className={`absolute inset-y-0 left-0 w-1 ${bar}`} aria-hidden="true" />
            <Icon size={20} className={`mt-0.5 shrink-0 ${accent}`} />
            <div className="min-w-0 flex-1 text-sm">
              {t.title ? <p className="font-semibold text-ink-900 dark:text-white">{t.title}</p> : null}
              <p className="text-slate-700 dark:text-slate-200">{t.message}</p>
            </div>
            <CloseButton onClose={() => dismiss(t.id)} size="sm" />
          </div>
        );
      })}
    </div>
  );
}
