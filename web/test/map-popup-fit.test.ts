import { describe, expect, it } from 'vitest';
import { type Box, panToFit, roomFor } from '../src/features/map/markers/popup-fit.ts';

const rect = (left: number, top: number, right: number, bottom: number): Box => ({ left, top, right, bottom, width: right - left, height: bottom - top });

/** A 390×844 phone as the map page draws it: top bar, 'Carte / Liste', floating buttons, bottom bar. */
const PHONE = rect(0, 0, 390, 844);
const PHONE_OVERLAYS = [rect(12, 12, 378, 72), rect(12, 84, 163, 130), rect(330, 538, 378, 760), rect(0, 776, 390, 844)];

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
