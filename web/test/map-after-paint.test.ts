import { afterEach, describe, expect, it, vi } from 'vitest';
import { type RepaintingMap, postponeRepaint, postponeTapRepaints } from '../src/features/map/after-paint.ts';

/** Frames asked with requestAnimationFrame, run by the test. */
let frames: Array<() => void> = [];
const runFrame = () => {
  const due = frames;
  frames = [];
  for (const f of due) f();
};

/** A map that asks for frames the way MapLibre's triggerRepaint does: one request at a time. */
function fakeMap(): RepaintingMap & { renders: number } {
  const map = {
    renders: 0,
    _frameRequest: null as AbortController | null,
    triggerRepaint() {
      if (map._frameRequest) return;
      const request = new AbortController();
      map._frameRequest = request;
      frames.push(() => {
        if (request.signal.aborted) return;
        map._frameRequest = null;
        map.renders++;
      });
    },
  };
  return map as RepaintingMap & { renders: number };
}

describe('postponeRepaint', () => {
  afterEach(() => {
    frames = [];
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it("keeps the map's pending redraw out of the next frame and asks for it once that frame is painted", () => {
    vi.useFakeTimers();
    vi.stubGlobal('requestAnimationFrame', (f: () => void) => frames.push(f));
    vi.stubGlobal('cancelAnimationFrame', () => undefined);
    const map = fakeMap();
    map.triggerRepaint();
    postponeRepaint(map);
    runFrame(); // the popup's frame: the map is not drawn in it
    expect(map.renders).toBe(0);
    vi.runAllTimers(); // the task after that frame asks again
    runFrame();
    expect(map.renders).toBe(1);
  });

  it('leaves a map with nothing pending alone', () => {
    vi.useFakeTimers();
    vi.stubGlobal('requestAnimationFrame', (f: () => void) => frames.push(f));
    const map = fakeMap();
    postponeRepaint(map);
    runFrame();
    vi.runAllTimers();
    expect(frames).toHaveLength(0);
    expect(map.renders).toBe(0);
  });

  it("moves a still tap's redraw after the next paint, not a pan's", () => {
    vi.useFakeTimers();
    vi.stubGlobal('requestAnimationFrame', (f: () => void) => frames.push(f));
    vi.stubGlobal('cancelAnimationFrame', () => undefined);
    const container = new EventTarget();
    const map = Object.assign(fakeMap(), { getCanvasContainer: () => container as HTMLElement });
    const touch = (type: string, x: number, down: boolean) =>
      container.dispatchEvent(
        Object.assign(new Event(type), {
          touches: down ? [{ clientX: x, clientY: 100 }] : [],
          changedTouches: [{ clientX: x, clientY: 100 }],
        }),
      );
    // MapLibre's own touchend listener, registered first, asks for the frame.
    container.addEventListener('touchend', () => map.triggerRepaint());
    const stop = postponeTapRepaints(map);
    touch('touchstart', 50, true);
    touch('touchend', 51, false);
    runFrame();
    expect(map.renders).toBe(0);
    vi.runAllTimers();
    runFrame();
    expect(map.renders).toBe(1);
    // A finger that moved: the frame stays where MapLibre asked for it.
    touch('touchstart', 50, true);
    touch('touchend', 90, false);
    runFrame();
    expect(map.renders).toBe(2);
    stop();
  });
});
