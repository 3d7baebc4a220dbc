import { type RefObject, useEffect, useRef } from 'react';

/** Open dialogs, innermost last: Escape closes only the top one. */
const stack: symbol[] = [];

/**
 * The element that last had the focus. A control that opens a dialog may lose the focus first (a
 * button disabled while its request runs, a lazy screen's fallback), so the dialog would see the
 * page's body as the element to return to; this remembers the control instead.
 */
const recent: HTMLElement[] = [];
if (typeof document !== 'undefined') {
  document.addEventListener(
    'focusin',
    (event) => {
      if (!(event.target instanceof HTMLElement) || event.target === document.body) return;
      const at = recent.indexOf(event.target);
      if (at >= 0) recent.splice(at, 1);
      recent.push(event.target);
      if (recent.length > 8) recent.shift();
    },
    true,
  );
}

/**
 * Where the focus goes back when `dialog` closes: the element focused last outside it. A field
 * inside that focuses itself on mount (its effect runs before the dialog's) is not the origin.
 */
export function focusOrigin(dialog: HTMLElement | null): HTMLElement | null {
  const active = document.activeElement;
  if (active instanceof HTMLElement && active !== document.body && !dialog?.contains(active)) return active;
  for (let i = recent.length - 1; i >= 0; i--) {
    const el = recent[i]!;
    if (el.isConnected && !dialog?.contains(el)) return el;
  }
  return null;
}

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/**
 * Accessible dialog behaviour: focus moves into the dialog, Tab stays inside it, Escape closes
 * it, and focus returns to where it was when the dialog closes.
 */
export function useDialogBehaviour(ref: RefObject<HTMLElement | null>, onClose: () => void): void {
  const close = useRef(onClose);
  close.current = onClose;

  useEffect(() => {
    const id = Symbol('dialog');
    stack.push(id);
    const node = ref.current;
    const previous = focusOrigin(node);
    if (node && !node.contains(document.activeElement)) {
      const autofocus = node.querySelector<HTMLElement>('[data-autofocus]');
      (autofocus ?? node).focus({ preventScroll: true });
    }

    const onKeyDown = (event: KeyboardEvent) => {
      if (stack[stack.length - 1] !== id) return;
      if (event.key === 'Escape') {
        event.preventDefault();
        close.current();
        return;
      }
      if (event.key !== 'Tab' || !ref.current) return;
      // tabindex -1 (a backdrop, a honeypot field) is out of the Tab order, in a dialog too.
      const items = Array.from(ref.current.querySelectorAll<HTMLElement>(FOCUSABLE)).filter(
        (el) => el.tabIndex >= 0 && (el.offsetParent !== null || el === document.activeElement),
      );
      if (items.length === 0) return;
      const first = items[0]!;
      const last = items[items.length - 1]!;
      if (event.shiftKey && (document.activeElement === first || document.activeElement === ref.current)) {
        event.preventDefault();
        last.focus();
      } else if (!event.shiftKey && document.activeElement === last) {
        event.preventDefault();
        first.focus();
      }
    };
    document.addEventListener('keydown', onKeyDown);
    return () => {
      document.removeEventListener('keydown', onKeyDown);
      const index = stack.indexOf(id);
      if (index >= 0) stack.splice(index, 1);
      if (previous?.isConnected) previous.focus({ preventScroll: true });
    };
  }, [ref]);
}
