// @vitest-environment jsdom
/**
 * The map counts as touched from a finger's press to a short while after it lifts, and while its
 * camera moves: live marker changes wait meanwhile (live-updates.ts).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { AFTER_TOUCH_MS, trackInteraction } from '../src/features/map/markers/interaction.ts';

const disposers: Array<() => void> = [];
afterEach(() => disposers.splice(0).forEach((dispose) => dispose()));

function mapWith(container: HTMLElement) {
  let moving = false;
  let clock = 1_000;
  const map = { getCanvasContainer: () => container, isMoving: () => moving };
  const interaction = trackInteraction(map, () => clock);
  disposers.push(() => interaction.dispose());
  return {
    interaction,
    move: (on: boolean) => (moving = on),
    wait: (ms: number) => (clock += ms),
  };
}

const pointer = (type: string, pointerId: number) => {
  const event = new Event(type, { bubbles: true });
  Object.defineProperty(event, 'pointerId', { value: pointerId });
  return event;
};

describe('the map touched or moving', () => {
  it('is busy from a press on the map until a moment after the finger lifts, anywhere', () => {
    const container = document.createElement('div');
    document.body.append(container);
    const { interaction, wait } = mapWith(container);
    expect(interaction.busy()).toBe(false);
    container.dispatchEvent(pointer('pointerdown', 1));
    wait(5_000);
    expect(interaction.busy()).toBe(true);
    document.body.dispatchEvent(pointer('pointerup', 1));
    expect(interaction.busy()).toBe(true);
    wait(AFTER_TOUCH_MS);
    expect(interaction.busy()).toBe(false);
  });

  it('stays busy while one of two fingers is still down, and while the camera moves', () => {
    const container = document.createElement('div');
    document.body.append(container);
    const { interaction, move, wait } = mapWith(container);
    container.dispatchEvent(pointer('pointerdown', 1));
    container.dispatchEvent(pointer('pointerdown', 2));
    document.body.dispatchEvent(pointer('pointercancel', 1));
    wait(AFTER_TOUCH_MS);
    expect(interaction.busy()).toBe(true);
    document.body.dispatchEvent(pointer('pointerup', 2));
    wait(AFTER_TOUCH_MS);
    expect(interaction.busy()).toBe(false);
    // A glide after the drag, or a flight to a place.
    move(true);
    expect(interaction.busy()).toBe(true);
  });

  it('ignores a press elsewhere on the page, and listens no more once disposed', () => {
    const container = document.createElement('div');
    const elsewhere = document.createElement('button');
    document.body.append(container, elsewhere);
    const { interaction } = mapWith(container);
    elsewhere.dispatchEvent(pointer('pointerdown', 1));
    expect(interaction.busy()).toBe(false);
    interaction.dispose();
    container.dispatchEvent(pointer('pointerdown', 2));
    expect(interaction.busy()).toBe(false);
  });
});
