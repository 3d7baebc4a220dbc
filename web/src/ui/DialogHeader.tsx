import type { ReactNode, Ref } from 'react';
import { SHELL_MESSAGES } from '@moodmap/core';
import { CloseIcon } from './icons.tsx';

/** Sizes of the round close button: dialogs and panels (`lg`), map popups (`md`), toasts (`sm`). */
const SIZES = {
  lg: { box: 'size-10 text-slate-500 transition dark:text-slate-400', icon: 20 },
  md: { box: 'size-8 text-slate-500 dark:text-slate-400', icon: 18 },
  sm: { box: 'size-7 text-slate-500 dark:text-slate-400', icon: 16 },
} as const;

export type CloseButtonSize = keyof typeof SIZES;

/** The round 'Fermer' button of every dialog, popup and toast. `className` places it (margins, absolute position). */
export function CloseButton({
  onClose,
  size = 'lg',
  testId,
  className = '',
}: {
  onClose: () => void;
  size?: CloseButtonSize;
  testId?: string;
  className?: string;
}) {
  const { box, icon } = SIZES[size];
  return (
    <button
      type="button"
      onClick={onClose}
      aria-label={SHELL_MESSAGES.close}
      data-testid={testId}
      className={`flex shrink-0 items-center justify-center rounded-full hover:bg-slate-100 hover:text-ink-900 dark:hover:bg-white/10 dark:hover:text-white ${box} ${className}`}
    >
      <CloseIcon size={icon} />
    </button>
  );
}

/**
 * The header row of a dialog, a route panel or a map popup: what the caller puts first (a title,
 * an author), then optional `actions`, then the close button at the end of the row.
 */
export function DialogHeader({
  onClose,
  children,
  actions,
  size = 'lg',
  closeTestId,
  className = '',
  as = 'header',
  ref,
}: {
  onClose: () => void;
  children: ReactNode;
  /** Buttons before the close button, grouped with it at the top of the row (a popup's 'Signaler'). */
  actions?: ReactNode;
  size?: CloseButtonSize;
  closeTestId?: string;
  className?: string;
  /** `div` where a `header` would become the page's banner landmark (a dialog portalled into body). */
  as?: 'header' | 'div';
  ref?: Ref<HTMLElement>;
}) {
  const row = `flex shrink-0 items-center gap-3 ${className}`;
  const content = (
    <>
      {children}
      {actions !== undefined ? (
        <div className="-mr-1.5 flex shrink-0 items-center gap-0.5 self-start">
          {actions}
          <CloseButton onClose={onClose} size={size} testId={closeTestId} />
        </div>
      ) : (
        <CloseButton onClose={onClose} size={size} testId={closeTestId} className="-mr-1.5" />
      )}
    </>
  );
  return as === 'div' ? (
    // Sound: the ref only ever receives this element, and a div is an HTMLElement.
    <div ref={ref as Ref<HTMLDivElement> | undefined} className={row}>
      {content}
    </div>
  ) : (
    <header ref={ref} className={row}>
      {content}
    </header>
  );
}
