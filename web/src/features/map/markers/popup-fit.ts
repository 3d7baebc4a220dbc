/**
 * Keeps an open popup clear of what floats over the map: the top bar, the 'Carte / Liste'
 * toggle, the floating buttons and the bottom bar. Each of them carries `data-map-overlay`; the
 * room is read from where they are drawn, not from fixed margins (a fixed 76 px let a phone's
 * popup slide under the toggle added later).
 */
import type { Map as MapLibreMap } from 'maplibre-gl';
import { motionMs } from '../../../ui/motion.ts';

/** The attribute that marks an element drawn over the map. */
const MAP_OVERLAY_ATTRIBUTE = 'data-map-overlay';

/** Space left between a popup and an overlay or the map's edge. */
const GAP = 8;

/** What is read of an element's rectangle (a DOMRect). */
export type Box = Pick<DOMRect, 'top' | 'bottom' | 'left' | 'right' | 'width' | 'height'>;

interface Room {
  top: number;
  bottom: number;
  left: number;
  right: number;
}

/**
 * The band a popup can use: below every overlay of the upper half and above every overlay of
 * the lower half that share columns with it.
 */
export function roomFor(box: Box, frame: Box, overlays: readonly Box[]): Room {
  const room = { top: frame.top + GAP, bottom: frame.bottom - GAP, left: frame.left + GAP, right: frame.right - GAP };
  const middle = (frame.top + frame.bottom) / 2;
  for (const overlay of overlays) {
    if (overlay.width === 0 || overlay.right <= box.left || overlay.left >= box.right) continue;
    if ((overlay.top + overlay.bottom) / 2 < middle) room.top = Math.max(room.top, overlay.bottom + GAP);
    else room.bottom = Math.min(room.bottom, overlay.top - GAP);
  }
  return room;
}

/** How far to pan so that `box` lies in `room`; its top wins when it is taller than the room. */
export function panToFit(box: Box, room: Room): [number, number] {
  let dx = 0;
  let dy = 0;
  if (box.top < room.top || box.height > room.bottom - room.top) dy = box.top - room.top;
  else if (box.bottom > room.bottom) dy = box.bottom - room.bottom;
  if (box.left < room.left) dx = box.left - room.left;
  else if (box.right > room.right) dx = box.right - room.right;
  return [Math.round(dx), Math.round(dy)];
}

const awaitingLanding = new WeakSet<MapLibreMap>();

/**
 * After the popup has painted: the camera moves only if the popup (or its marker) is not fully
 * in the free room, by just what it takes to show it.
 */
export function revealPopup(map: MapLibreMap): void {
  // A camera already on its way (a focused post's flyTo) is not cut short by a pan: the popup
  // is fitted once it lands.
  if (map.isMoving()) {
    if (!awaitingLanding.has(map)) {
      awaitingLanding.add(map);
      map.once('moveend', () => {
        awaitingLanding.delete(map);
        revealPopup(map);
      });
    }
    return;
  }
  const popup = map.getContainer().querySelector<HTMLElement>('.mm-popup');
  if (!popup) return;
  const box = popup.getBoundingClientRect();
  const overlays = [...document.querySelectorAll<HTMLElement>(`[${MAP_OVERLAY_ATTRIBUTE}]`)].map((element) =>
    element.getBoundingClientRect(),
  );
  const [dx, dy] = panToFit(box, roomFor(box, map.getContainer().getBoundingClientRect(), overlays));
  if (dx !== 0 || dy !== 0) map.panBy([dx, dy], { duration: motionMs(350), essential: true });
}

/** How long a popup's first fit waits for its card: on a slow network the skeleton is fitted. */
export const CARD_WAIT_MS = 500;

/**
 * Fits an open popup (`reveal`) once it shows what it will show: two frames after its first paint,
 * or, while it is still the skeleton of a card being read (`aria-busy`), when the card replaces it
 * (the popup's size changes) or after CARD_WAIT_MS. Fitted at once, the skeleton's camera move
 * would run first and the card wait behind its frames (a full map frame each), then the card,
 * taller, would move the camera a second time. After the first fit, every
 * change of the popup's size fits it again. Returns what stops it.
 */
export function fitPopup(popup: Element | null, reveal: () => void): () => void {
  const busy = () => popup?.querySelector('[aria-busy="true"]') != null;
  let fitted = false;
  const fitNow = () => {
    fitted = true;
    clearTimeout(timer);
    reveal();
  };
  const timer = setTimeout(fitNow, CARD_WAIT_MS);
  let raf = requestAnimationFrame(() => {
    raf = requestAnimationFrame(() => {
      if (!busy()) fitNow();
    });
  });
  // Not on the observer's first call, which comes with the popup's first frame, before its paint
  // (fitting then would measure the page inside the tap's own frame).
  let first = true;
  const observer =
    typeof ResizeObserver === 'undefined' || !popup
      ? null
      : new ResizeObserver(() => {
          if (first) first = false;
          else if (fitted || !busy()) fitNow();
        });
  if (popup) observer?.observe(popup);
  return () => {
    cancelAnimationFrame(raf);
    clearTimeout(timer);
    observer?.disconnect();
  };
}
