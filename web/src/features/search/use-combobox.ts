/**
 * The keyboard and pointer behaviour of a search box whose results open under it, shared by the
 * top bar and the create page's place search: arrows move through the options (wrapping round),
 * Enter picks the highlighted one, or the first of the answer (when the answer is still on its way,
 * the first of it once it is in), Escape closes the list and a second Escape clears the box; a
 * press outside closes it.
 */
import { type KeyboardEvent, useEffect, useRef, useState } from 'react';

export function useCombobox<E extends HTMLElement>({
  active,
  count,
  waiting,
  resetOn,
  hasText,
  onPick,
  onClear,
}: {
  /** Whether the box holds something searchable. */
  active: boolean;
  /** How many options are listed. */
  count: number;
  /** Whether the list may still change (typing, or an answer on its way). */
  waiting: boolean;
  /** A new answer: nothing is highlighted in it yet. */
  resetOn: unknown;
  hasText: boolean;
  onPick: (index: number) => void;
  onClear: () => void;
}) {
  const [open, setOpen] = useState(false);
  const [highlight, setHighlight] = useState(-1);
  // Enter pressed while the answer was on its way: the first option of that answer is picked.
  const [pickFirstWhenIn, setPickFirstWhenIn] = useState(false);
  const containerRef = useRef<E>(null);
  const shown = open && active;

  useEffect(() => setHighlight(-1), [resetOn]);

  useEffect(() => {
    if (!pickFirstWhenIn || waiting) return;
    setPickFirstWhenIn(false);
    if (shown && count > 0) onPick(0);
  }, [pickFirstWhenIn, waiting, shown, count, onPick]);

  useEffect(() => {
    if (!shown) return;
    const onPointer = (event: PointerEvent) => {
      if (!containerRef.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', onPointer);
    return () => document.removeEventListener('pointerdown', onPointer);
  }, [shown]);

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      if (!active) return;
      event.preventDefault();
      setOpen(true);
      if (count === 0) return;
      const step = event.key === 'ArrowDown' ? 1 : -1;
      setHighlight((h) => (h < 0 ? (step > 0 ? 0 : count - 1) : (h + step + count) % count));
    } else if (event.key === 'Enter') {
      // Never submits a form around the box (the create page's).
      event.preventDefault();
      const index = highlight >= 0 && highlight < count ? highlight : shown && !waiting && count > 0 ? 0 : -1;
      if (index >= 0) onPick(index);
      else if (shown && waiting) setPickFirstWhenIn(true);
    } else if (event.key === 'Escape') {
      setPickFirstWhenIn(false);
      if (shown) {
        event.stopPropagation();
        setOpen(false);
      } else if (hasText) {
        event.stopPropagation();
        onClear();
      }
    }
  };

  return { open, setOpen, shown, highlight, setHighlight, containerRef, onKeyDown };
}
