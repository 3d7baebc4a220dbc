/**
 * Password hashing with argon2id (@node-rs/argon2, OWASP parameters: 19 MiB, 2 passes, 1 lane).
 * An unknown e-mail is checked against a dummy hash so a failed sign-in takes
 * the same time whether or not the account exists.
 */
import { randomBytes } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';

const OPTIONS = { memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  // The default algorithm of @node-rs/argon2 is argon2id (its const enum cannot be imported
  // under isolatedModules); a test checks the stored hash starts with $argon2id$.
  return hash(password, OPTIONS);
}

let dummyHash: Promise<string> | undefined;

/** Verifies a password; with no stored hash, spends the same work on a dummy and fails. */
export async function verifyPassword(storedHash: string | null, password: string): Promise<boolean> {
  if (!storedHash) {
    dummyHash ??= hashPassword(randomBytes(16).toString('hex'));
    await verify(await dummyHash, password).catch(() => false);
    return false;
  }
  try {
    return await verify(storedHash, password);
  } catch {
    return false;
  }
}
