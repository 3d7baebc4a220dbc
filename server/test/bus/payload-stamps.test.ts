/**
 * A payload's publish stamp against its arrival: taken while its publisher still waits for it,
 * dropped from the moment the publisher may have given up, whatever the timers' and clocks'
 * millisecond rounding.
 */
import { describe, expect, it } from 'vitest';
import { PUBLISH_TIMEOUT_MS, stamped, unstamped } from '../../src/adapters/bus/payloads.ts';

const SENT_AT = 1_750_000_000_000;
const message = stamped('{"type":"message.created","data":{}}', SENT_AT);

describe('publish stamps on arrival', () => {
  it('takes a payload that arrives soon after its publish', () => {
    expect(unstamped(message, SENT_AT)).toBe('{"type":"message.created","data":{}}');
    expect(unstamped(message, SENT_AT + 1500)).toBe('{"type":"message.created","data":{}}');
  });

  it('drops one that arrives when its publisher may already have reported it lost, a timer firing a millisecond early included', () => {
    for (const late of [PUBLISH_TIMEOUT_MS - 1, PUBLISH_TIMEOUT_MS, PUBLISH_TIMEOUT_MS + 1, 60_000])
      expect(unstamped(message, SENT_AT + late), `${late} ms`).toBeNull();
  });

  it('drops one without a readable stamp', () => {
    expect(unstamped('{"type":"x"}', SENT_AT)).toBeNull();
    expect(unstamped('abc|{"type":"x"}', SENT_AT)).toBeNull();
  });
});
