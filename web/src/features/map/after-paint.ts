import type { Map as MapLibreMap } from 'maplibre-gl';

/**
 * Runs `fn` once the next frame has been painted (a frame, then a task after it), and returns
 * what cancels it. What a tap shows comes first; the work it also sets off (the card's request,
 * the map's redraw of a larger marker) waits for that frame instead of delaying it.
 */
export function afterNextPaint(fn: () => void): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  if (typeof requestAnimationFrame !== 'function') {
    timer = setTimeout(fn, 0);
    return () => clearTimeout(timer);
  }
  const raf = requestAnimationFrame(() => {
    timer = setTimeout(fn, 0);
  });
  return () => {
    cancelAnimationFrame(raf);
    clearTimeout(timer);
  };
}

/** What postponeRepaint needs of the map: its pending frame and the call that asks for one. */
export type RepaintingMap = Pick<MapLibreMap, '_frameRequest' | 'triggerRepaint'>;

/**
 * Moves the map's pending redraw to after the next paint. MapLibre redraws the whole map after
 * every gesture, a tap that moved nothing included: its touch and mouse pan handlers count as
 * active from the finger's or button's press, and their end asks for a frame (HandlerManager's
 * _requestFrame calls triggerRepaint). That frame would come before the tapped popup's paint, and
 * a full map frame is the phone's costliest work (with a software compositor, the canvas is also
 * read back): the popup would wait for a redraw of an unchanged map. It is still drawn, one
 * frame later; the handlers' queued work runs in that frame, as it would have.
 */
export function postponeRepaint(map: RepaintingMap): () => void {
  const pending = map._frameRequest;
  if (!pending) return () => undefined;
  pending.abort();
  // MapLibre clears the field itself once a frame ran (triggerRepaint); its type has no null.
  Object.assign(map, { _frameRequest: null });
  return afterNextPaint(() => map.triggerRepaint());
}

/** How far (CSS px) a finger may move and still tap, as MapLibre's click tolerance. */
const TAP_TOLERANCE_PX = 3;

/**
 * postponeRepaint at the end of every still tap on `map`. The click that opens a popup is
 * emulated from the touch, and Chromium may dispatch it after the next frame: the redraw the
 * touch's end asked for would come first. Listened to on the canvas container after MapLibre,
 * which asks for that frame in its own `touchend` listener there. A tap's redraw moves one frame
 * later; a pan's end (its inertia) is left alone.
 */
export function postponeTapRepaints(map: RepaintingMap & Pick<MapLibreMap, 'getCanvasContainer'>): () => void {
  const container = map.getCanvasContainer();
  let start: { x: number; y: number } | null = null;
  const onStart = (event: TouchEvent) => {
    const touch = event.touches.length === 1 ? event.touches[0] : undefined;
    start = touch ? { x: touch.clientX, y: touch.clientY } : null;
  };
  const onEnd = (event: TouchEvent) => {
    const touch = event.changedTouches[0];
    if (
      start &&
      touch &&
      event.touches.length === 0 &&
      Math.hypot(touch.clientX - start.x, touch.clientY - start.y) < TAP_TOLERANCE_PX
    ) {
      postponeRepaint(map);
    }
    start = null;
  };
  container.addEventListener('touchstart', onStart, { passive: true });
  container.addEventListener('touchend', onEnd, { passive: true });
  return () => {
    container.removeEventListener('touchstart', onStart);
    container.removeEventListener('touchend', onEnd);
  };
}
