/**
 * A popup opened by keyboard takes the focus (its frame, which stays while the card replaces
 * its skeleton); closing it gives the focus back to the marker's button.
 */
import { type RefObject, useEffect } from 'react';
import type { Map as MapLibreMap } from 'maplibre-gl';
import type { Selection } from './use-selection.ts';

/** `openedFrom`: the key of the marker button the popup was opened from by keyboard, if it was. */
export function usePopupFocus(
  map: MapLibreMap | null,
  selection: Selection | null,
  openedFrom: RefObject<string | null>,
): void {
  const popupOpen = selection !== null;
  useEffect(() => {
    if (!map || !popupOpen || !openedFrom.current) return;
    const raf = requestAnimationFrame(() => {
      const frame = map.getContainer().querySelector<HTMLElement>('.mm-popup .maplibregl-popup-content');
      if (!frame) return;
      frame.tabIndex = -1;
      frame.focus({ preventScroll: true });
    });
    return () => cancelAnimationFrame(raf);
  }, [map, popupOpen, selection, openedFrom]);
  useEffect(() => {
    if (popupOpen || !map || !openedFrom.current) return;
    const key = openedFrom.current;
    openedFrom.current = null;
    const active = document.activeElement;
    // Only when the focus was in the popup (or lost with it), not when it moved elsewhere.
    if (active && active !== document.body && !map.getContainer().contains(active)) return;
    map
      .getContainer()
      .querySelector<HTMLElement>(`[data-marker-key="${CSS.escape(key)}"]`)
      ?.focus({ preventScroll: true });
  }, [map, popupOpen, openedFrom]);
}
