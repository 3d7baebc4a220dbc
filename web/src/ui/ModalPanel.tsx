import { type ReactNode, useCallback } from 'react';
import { useNavigate } from 'react-router';
import { DialogHeader } from './DialogHeader.tsx';
import { useTitledDialog } from './titled-dialog.ts';

/**
 * The panel a modal route opens over the map: a full-height sheet on mobile,
 * a centred scrollable panel (max 720 px) on desktop. Closing returns to /. The bottom
 * navigation stays usable above it. `wide`: a fixed-height panel (80% of the viewport on desktop)
 * whose content scrolls its own parts, for /messages.
 */
export function ModalPanel({ title, children, wide = false }: { title: string; children: ReactNode; wide?: boolean }) {
  const navigate = useNavigate();
  const close = useCallback(() => navigate('/'), [navigate]);
  const { dialogProps, headerRef, titleId } = useTitledDialog(close);

  return (
    <div className="fixed inset-0 z-40 flex items-stretch justify-center pt-[max(env(safe-area-inset-top),0.5rem)] pb-[calc(4.25rem+env(safe-area-inset-bottom))] md:items-center md:px-6 md:pt-6 md:pb-28">
      <div
        className="absolute inset-0 animate-fade-in bg-ink-900/40 backdrop-blur-[2px]"
        onClick={close}
        aria-hidden="true"
      />
      <section
        {...dialogProps}
        data-testid="modal-panel"
        className={`relative flex w-full animate-sheet-in flex-col overflow-hidden rounded-t-3xl bg-white shadow-2xl outline-none md:max-h-full md:animate-pop-in md:rounded-3xl dark:bg-ink-900 dark:ring-1 dark:ring-white/10 ${wide ? 'md:h-[80vh] md:max-w-5xl' : 'md:max-w-[720px]'}`}
      >
        <DialogHeader
          ref={headerRef}
          onClose={close}
          closeTestId="modal-close"
          className="justify-between border-b border-slate-100 px-5 py-3.5 md:px-7 md:py-4 dark:border-white/5"
        >
          <h1
            id={titleId}
            className="truncate text-lg font-bold tracking-tight text-ink-900 md:text-xl dark:text-white"
          >
            {title}
          </h1>
        </DialogHeader>
        <div
          className={`min-h-0 flex-1 ${wide ? 'flex flex-col overflow-hidden' : 'overflow-y-auto overscroll-contain'}`}
        >
          {children}
        </div>
      </section>
    </div>
  );
}
