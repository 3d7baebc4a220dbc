/**
 * The stored password hash: argon2id on the production parameters (19 MiB, 2 passes, 1 lane).
 * Test users made by helpers/auth.ts use cheap parameters; these tests keep the real ones covered.
 */
import { describe, expect, it } from 'vitest';
import { hashPassword, verifyPassword } from '../../src/modules/auth/passwords.ts';

describe('password hashes', () => {
  it('are argon2id with the production parameters and a salt of their own', async () => {
    const [first, second] = [await hashPassword('Soleil2024'), await hashPassword('Soleil2024')];
    expect(first).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(first).not.toBe(second);
  });

  it('verify the right password only, and never an account without a hash', async () => {
    const stored = await hashPassword('Soleil2024');
    expect(await verifyPassword(stored, 'Soleil2024')).toBe(true);
    expect(await verifyPassword(stored, 'soleil2024')).toBe(false);
    expect(await verifyPassword(null, 'Soleil2024')).toBe(false);
    expect(await verifyPassword('pas-un-hash', 'Soleil2024')).toBe(false);
  });
});
