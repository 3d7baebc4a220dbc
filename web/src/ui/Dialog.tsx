import type { ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { DialogHeader } from './DialogHeader.tsx';
import { useTitledDialog } from './titled-dialog.ts';

/**
 * A non-route modal (login, help…): a bottom sheet on mobile, a centred card on desktop.
 * Escape, the close button and a backdrop click close it.
 */
export function Dialog({
  title,
  onClose,
  children,
  testId,
  width = 'max-w-md',
}: {
  title: ReactNode;
  onClose: () => void;
  children: ReactNode;
  testId?: string;
  width?: string;
}) {
  const { dialogProps, headerRef, titleId } = useTitledDialog<HTMLDivElement>(onClose);

  return createPortal(
    <div className="fixed inset-0 z-[60] flex items-end justify-center md:items-center md:p-6">
      <div
        className="absolute inset-0 animate-fade-in bg-ink-900/45 backdrop-blur-[2px]"
        onClick={onClose}
        aria-hidden="true"
      />
      <div
        {...dialogProps}
        data-testid={testId}
        className={`relative flex max-h-[92dvh] w-full ${width} animate-sheet-in flex-col overflow-hidden rounded-t-3xl bg-white shadow-2xl outline-none md:animate-pop-in md:rounded-3xl dark:bg-ink-900 dark:ring-1 dark:ring-white/10`}
      >
        <div
          className="mx-auto mt-2.5 h-1.5 w-10 rounded-full bg-slate-200 md:hidden dark:bg-white/15"
          aria-hidden="true"
        />
        <DialogHeader as="div" ref={headerRef} onClose={onClose} className="justify-between px-6 pt-4 pb-2 md:pt-6">
          <h2 id={titleId} className="text-xl font-bold tracking-tight text-ink-900 dark:text-white">
            {title}
          </h2>
        </DialogHeader>
        <div className="overflow-y-auto px-6 pt-2 pb-[max(1.5rem,env(safe-area-inset-bottom))]">{children}</div>
      </div>
    </div>,
    document.body,
  );
}
