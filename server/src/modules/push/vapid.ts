/**
 * The server's VAPID identity (RFC 8292) for Web Push: VAPID_PUBLIC_KEY + VAPID_PRIVATE_KEY when
 * configured; otherwise a key pair generated once and kept in DATA_DIR/secrets/vapid.json (mode
 * 0600), like the JWT secret (../auth/secret.ts). The pair must never change while devices are
 * subscribed: browsers bound each subscription to the public key, and a new key silently ends
 * every one of them. Several instances share it the same way: the variables, or one data dir.
 * Without a data directory (tests) it is random per process.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import webpush from 'web-push';
import type { Config } from '../../config.ts';

export interface VapidKeys {
  publicKey: string;
  privateKey: string;
  /** Who push services may contact about this sender: a mailto: or https: URL. */
  subject: string;
}

type KeyPair = Pick<VapidKeys, 'publicKey' | 'privateKey'>;

const B64URL = /^[A-Za-z0-9_-]+$/;
/** A raw P-256 public point (65 bytes) and private scalar (32 bytes), base64url as web-push writes them. */
function validPair(pair: Partial<KeyPair> | null | undefined): pair is KeyPair {
  return (
    typeof pair?.publicKey === 'string' &&
    typeof pair.privateKey === 'string' &&
    B64URL.test(pair.publicKey) &&
    B64URL.test(pair.privateKey) &&
    Buffer.from(pair.publicKey, 'base64url').length === 65 &&
    Buffer.from(pair.privateKey, 'base64url').length === 32
  );
}

/** `MoodMap <no-reply@example.org>` → `mailto:no-reply@example.org`. */
export function subjectOf(config: Pick<Config, 'vapid' | 'mailFrom' | 'adminEmail'>): string {
  if (config.vapid.subject) return config.vapid.subject;
  const address =
    /<([^<>\s]+@[^<>\s]+)>/.exec(config.mailFrom)?.[1] ??
    (/^[^\s@<>]+@[^\s@<>]+$/.test(config.mailFrom.trim()) ? config.mailFrom.trim() : config.adminEmail);
  return `mailto:${address ?? 'no-reply@moodmap.local'}`;
}

export async function loadVapidKeys(
  config: Pick<Config, 'vapid' | 'dataDir' | 'mailFrom' | 'adminEmail'>,
): Promise<VapidKeys> {
  const subject = subjectOf(config);
  const { publicKey, privateKey } = config.vapid;
  if (publicKey || privateKey) {
    const pair = { publicKey, privateKey };
    if (!validPair(pair))
      throw new Error(
        'VAPID_PUBLIC_KEY et VAPID_PRIVATE_KEY vont ensemble : une paire de clés P-256 en base64url (npx web-push generate-vapid-keys)',
      );
    return { ...pair, subject };
  }
  if (!config.dataDir) return { ...webpush.generateVAPIDKeys(), subject };
  const dir = path.join(config.dataDir, 'secrets');
  const file = path.join(dir, 'vapid.json');
  const stored = await readPair(file);
  if (stored) return { ...stored, subject };
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const pair = webpush.generateVAPIDKeys();
  try {
    // 'wx': if another process created it meanwhile, keep theirs.
    await writeFile(file, JSON.stringify(pair), { mode: 0o600, flag: 'wx' });
    return { ...pair, subject };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    const theirs = await readPair(file);
    if (!theirs) throw new Error(`${file} : paire de clés VAPID illisible`);
    return { ...theirs, subject };
  }
}

async function readPair(file: string): Promise<KeyPair | null> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  let pair: unknown;
  try {
    pair = JSON.parse(text);
  } catch {
    pair = null;
  }
  // A damaged file is not replaced: that would end every subscription without a word.
  if (!validPair(pair as Partial<KeyPair>)) throw new Error(`${file} : paire de clés VAPID illisible`);
  const { publicKey, privateKey } = pair as KeyPair;
  return { publicKey, privateKey };
}
