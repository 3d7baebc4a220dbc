import { useId, useRef } from 'react';
import { useDialogBehaviour } from './dialog-behaviour.ts';
import { useToastClearance } from './toast-clearance.ts';

/**
 * A modal named by its own title (a dialog, a route panel): the props of the dialog element
 * (focus kept inside, Escape closes), the ref of the header row that toasts stay below, and the
 * id the title carries.
 */
export function useTitledDialog<T extends HTMLElement>(onClose: () => void) {
  const ref = useRef<T>(null);
  const headerRef = useRef<HTMLElement>(null);
  const titleId = useId();
  useDialogBehaviour(ref, onClose);
  useToastClearance(headerRef, ref);
  return {
    titleId,
    headerRef,
    dialogProps: { ref, role: 'dialog', 'aria-modal': true, 'aria-labelledby': titleId, tabIndex: -1 } as const,
  };
}
