import { describe, expect, it } from 'vitest';
import { isUnreadFor } from '../src/unread.ts';

describe('a conversation is unread for me', () => {
  const fromOther = { senderId: 'other', read: false };
  it("when I accepted it and its last message is the other person's, not read yet", () => {
    expect(isUnreadFor('me', true, fromOther)).toBe(true);
  });
  it('not once that message is read, nor when the last message is mine', () => {
    expect(isUnreadFor('me', true, { ...fromOther, read: true })).toBe(false);
    expect(isUnreadFor('me', true, { senderId: 'me', read: false })).toBe(false);
  });
  it('never for a request waiting for my answer, nor without a message', () => {
    expect(isUnreadFor('me', false, fromOther)).toBe(false);
    expect(isUnreadFor('me', true, null)).toBe(false);
  });
  it("when the other person's account is gone (no sender) and I have not read it", () => {
    expect(isUnreadFor('me', true, { senderId: null, read: false })).toBe(true);
  });
});
