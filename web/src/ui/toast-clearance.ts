import { type RefObject, useLayoutEffect } from 'react';

/**
 * Toasts sit top right, which on a wide screen is where an open dialog keeps its
 * header and close button. Each open dialog that reaches into the toast column reports its
 * header's bottom edge; the lowest one becomes `--dialog-header-bottom`, and `.toast-region`
 * (index.css) starts below it.
 */
const bottoms = new Map<symbol, number>();

/** Where the toast column starts on a wide screen: `.toast-region` in index.css, 1.25rem + 24rem from the right. */
const TOAST_COLUMN_PX = 404;

function publish(): void {
  const lowest = Math.max(0, ...bottoms.values());
  const root = document.documentElement.style;
  if (lowest > 0) root.setProperty('--dialog-header-bottom', `${Math.ceil(lowest)}px`);
  else root.removeProperty('--dialog-header-bottom');
}

/** `header`: the dialog's title row. Re-measured when the dialog or the window changes size. */
export function useToastClearance(header: RefObject<HTMLElement | null>, dialog: RefObject<HTMLElement | null>): void {
  useLayoutEffect(() => {
    const id = Symbol('dialog-header');
    const measure = () => {
      const rect = header.current?.getBoundingClientRect();
      if (rect && rect.right > window.innerWidth - TOAST_COLUMN_PX) bottoms.set(id, rect.bottom);
      else bottoms.delete(id);
      publish();
    };
    measure();
    // The pop-in animation scales the dialog: measure again once it has its final place.
    const node = dialog.current;
    node?.addEventListener('animationend', measure);
    const observer = typeof ResizeObserver === 'function' ? new ResizeObserver(measure) : null;
    if (node) observer?.observe(node);
    window.addEventListener('resize', measure);
    return () => {
      node?.removeEventListener('animationend', measure);
      observer?.disconnect();
      window.removeEventListener('resize', measure);
      bottoms.delete(id);
      publish();
    };
  }, [header, dialog]);
}
