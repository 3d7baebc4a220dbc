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
