import { afterEach, describe, expect, it, vi } from 'vitest';
import { type Box, CARD_WAIT_MS, fitPopup, panToFit, roomFor } from '../src/features/map/markers/popup-fit.ts';

const rect = (left: number, top: number, right: number, bottom: number): Box => ({
  left,
  top,
  right,
  bottom,
  width: right - left,
  height: bottom - top,
});

/** A 390×844 phone as the map page draws it: top bar, 'Carte / Liste', floating buttons, bottom bar. */
const PHONE = rect(0, 0, 390, 844);
const PHONE_OVERLAYS = [
  rect(12, 12, 378, 72),
  rect(12, 84, 163, 130),
  rect(330, 538, 378, 760),
  rect(0, 776, 390, 844),
];

describe('popup fit', () => {
  it("moves a phone's post popup out from under the 'Carte / Liste' toggle, not only the top bar", () => {
    const popup = rect(44, 82, 346, 381);
    const room = roomFor(popup, PHONE, PHONE_OVERLAYS);
    expect(room.top).toBe(138);
    expect(panToFit(popup, room)).toEqual([0, -56]);
  });

  it('keeps a popup above the floating buttons when it shares their column', () => {
    const popup = rect(44, 250, 346, 560);
    const room = roomFor(popup, PHONE, PHONE_OVERLAYS);
    expect(room.bottom).toBe(530);
    expect(panToFit(popup, room)).toEqual([0, 30]);
  });

  it('shows the top of a popup taller than the room (a long group list)', () => {
    const popup = rect(44, 76, 346, 555);
    expect(panToFit(popup, roomFor(popup, PHONE, PHONE_OVERLAYS))).toEqual([0, -62]);
  });

  it('ignores overlays in other columns and hidden ones, and leaves a popup that fits alone', () => {
    const desktop = rect(0, 0, 1440, 900);
    const overlays = [rect(340, 12, 1100, 72), rect(20, 84, 165, 130), rect(1380, 640, 1420, 880), rect(0, 0, 0, 0)];
    const popup = rect(600, 90, 900, 400);
    const room = roomFor(popup, desktop, overlays);
    expect(room).toEqual({ top: 80, bottom: 892, left: 8, right: 1432 });
    expect(panToFit(popup, room)).toEqual([0, 0]);
  });

  it('pans sideways a popup that leaves the screen', () => {
    const popup = rect(-40, 200, 262, 480);
    expect(panToFit(popup, roomFor(popup, PHONE, PHONE_OVERLAYS))).toEqual([-48, 0]);
  });
});

describe('when an open popup is fitted (fitPopup)', () => {
  let frames: Array<() => void> = [];
  let resized: Array<() => void> = [];
  const runFrame = () => {
    const due = frames;
    frames = [];
    for (const f of due) f();
  };
  const resize = () => resized.forEach((f) => f());

  /** A popup element whose card is being read (`aria-busy`) or shown; frames and size changes run by the test. */
  function setUp(busy: boolean) {
    vi.useFakeTimers();
    vi.stubGlobal('requestAnimationFrame', (f: () => void) => frames.push(f));
    vi.stubGlobal('cancelAnimationFrame', () => undefined);
    vi.stubGlobal(
      'ResizeObserver',
      class {
        private readonly fn: () => void;
        constructor(fn: () => void) {
          this.fn = fn;
        }
        observe() {
          resized.push(this.fn);
        }
        disconnect() {
          resized = resized.filter((f) => f !== this.fn);
        }
      },
    );
    const state = { busy };
    const popup = {
      querySelector: (selector: string) => (selector === '[aria-busy="true"]' && state.busy ? {} : null),
    } as unknown as Element;
    const reveal = vi.fn();
    const stop = fitPopup(popup, reveal);
    resize(); // the observer's first call, with the popup's first frame
    return { state, reveal, stop };
  }

  afterEach(() => {
    frames = [];
    resized = [];
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('fits a popup showing its card two frames after its first paint, then again when it grows', () => {
    const { reveal } = setUp(false);
    runFrame();
    expect(reveal).not.toHaveBeenCalled();
    runFrame();
    expect(reveal).toHaveBeenCalledTimes(1);
    resize();
    expect(reveal).toHaveBeenCalledTimes(2);
  });

  it('waits for the card to replace the skeleton before moving the camera, once', () => {
    const { state, reveal } = setUp(true);
    runFrame();
    runFrame();
    expect(reveal).not.toHaveBeenCalled();
    state.busy = false;
    resize(); // the card, taller, replaced the skeleton
    expect(reveal).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(CARD_WAIT_MS);
    expect(reveal).toHaveBeenCalledTimes(1);
  });

  it('fits the skeleton when the card is slow, and the card when it comes', () => {
    const { state, reveal } = setUp(true);
    runFrame();
    runFrame();
    vi.advanceTimersByTime(CARD_WAIT_MS - 1);
    expect(reveal).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(reveal).toHaveBeenCalledTimes(1);
    state.busy = false;
    resize();
    expect(reveal).toHaveBeenCalledTimes(2);
  });

  it('does nothing once stopped (the popup closed)', () => {
    const { reveal, stop } = setUp(true);
    stop();
    runFrame();
    runFrame();
    vi.advanceTimersByTime(CARD_WAIT_MS);
    resize();
    expect(reveal).not.toHaveBeenCalled();
  });
});
