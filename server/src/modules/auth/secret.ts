/**
 * The server's signing secret: JWT_SECRET when configured; otherwise generated once and kept
 * in DATA_DIR/secrets/jwt.key (mode 0600), so sessions survive a restart without any setup.
 * Several instances must share it: set JWT_SECRET, or share the data directory.
 * Without a data directory (tests) it is random per process.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Config } from '../../config.ts';

export async function loadServerSecret(config: Pick<Config, 'jwtSecret' | 'dataDir'>): Promise<Buffer> {
  if (config.jwtSecret) return Buffer.from(config.jwtSecret, 'utf8');
  if (!config.dataDir) return randomBytes(32);
  const dir = path.join(config.dataDir, 'secrets');
  const file = path.join(dir, 'jwt.key');
  try {
    return Buffer.from((await readFile(file, 'utf8')).trim(), 'base64url');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const secret = randomBytes(48);
  try {
    // 'wx': if another process created it meanwhile, keep theirs.
    await writeFile(file, secret.toString('base64url'), { mode: 0o600, flag: 'wx' });
    return secret;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return Buffer.from((await readFile(file, 'utf8')).trim(), 'base64url');
  }
}
