import { describe, expect, it } from 'vitest';
import { createSocketBlocks } from '../../src/realtime/socket-blocks.ts';

/** A read of someone's blocks that the test answers when it wants. */
function pendingRead() {
  let answer: (hidden: Set<string>) => void = () => {};
  const read = new Promise<Set<string>>((resolve) => {
    answer = resolve;
  });
  return { of: () => read, answer };
}

describe('the people a socket hears nothing about', () => {
  it('are everyone until its blocks are read, then only those blocked either way', async () => {
    const read = pendingRead();
    const blocks = createSocketBlocks<object>(read);
    const socket = {};
    blocks.hideEveryoneUntilLoaded(socket);
    const loading = blocks.load(socket, 'viewer', () => true);
    expect(blocks.hides(socket, ['someone'])).toBe(true);
    // An event about no one in particular (a bus check, a staff notice) is not held back.
    expect(blocks.hides(socket, null)).toBe(false);
    read.answer(new Set(['blocked']));
    await loading;
    expect(blocks.hides(socket, ['someone'])).toBe(false);
    expect(blocks.hides(socket, ['someone', 'blocked'])).toBe(true);
  });

  it('are one more person at once when a block lands, before the reload', async () => {
    const blocks = createSocketBlocks<object>({ of: async () => new Set<string>() });
    const socket = {};
    await blocks.load(socket, 'viewer', () => true);
    blocks.add(socket, 'newly-blocked');
    expect(blocks.hides(socket, ['newly-blocked'])).toBe(true);
    expect(blocks.hides(socket, ['someone'])).toBe(false);
  });

  it('are kept only while the socket is still the same person once read', async () => {
    const read = pendingRead();
    const blocks = createSocketBlocks<object>(read);
    const socket = {};
    const loading = blocks.load(socket, 'viewer', () => false);
    read.answer(new Set(['blocked']));
    await loading;
    expect(blocks.hides(socket, ['blocked'])).toBe(false);
  });

  it('are nobody on an app without blocks', () => {
    const blocks = createSocketBlocks<object>();
    const socket = {};
    blocks.hideEveryoneUntilLoaded(socket);
    expect(blocks.hides(socket, ['someone'])).toBe(false);
  });
});
