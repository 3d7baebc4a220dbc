/**
 * PUSH_EXTRA_ORIGINS names stand-in push services for a browser journey: they skip the address
 * check, so a production server refuses to start with any.
 */
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';

describe('PUSH_EXTRA_ORIGINS', () => {
  it('is read outside production, one origin per comma', () => {
    const config = loadConfig({
      NODE_ENV: 'development',
      PUSH_EXTRA_ORIGINS: 'http://127.0.0.1:4100, http://127.0.0.1:4101',
    });
    expect(config.pushExtraOrigins).toEqual(['http://127.0.0.1:4100', 'http://127.0.0.1:4101']);
    expect(loadConfig({ NODE_ENV: 'development' }).pushExtraOrigins).toEqual([]);
  });

  it('stops a production start, and refuses text that is no URL', () => {
    expect(() => loadConfig({ NODE_ENV: 'production', PUSH_EXTRA_ORIGINS: 'http://127.0.0.1:4100' })).toThrow(
      /PUSH_EXTRA_ORIGINS est réservé aux tests/,
    );
    expect(() => loadConfig({ NODE_ENV: 'development', PUSH_EXTRA_ORIGINS: 'pas une url' })).toThrow(
      /origine invalide/,
    );
  });
});
