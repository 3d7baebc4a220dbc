/** Builds the ZIP of a member's data: one JSON per kind, their media files, and a README.txt. */
import { strToU8, zipSync, type Zippable } from 'fflate';
import type { MediaStorage } from '../../adapters/storage/types.ts';
import type { Db } from '../../db/client.ts';
import { collectMemberData } from './export-collect.ts';
import { readmeText } from './export-readme.ts';

/** Media are already compressed (WebP, WebM): stored as they are. */
const STORED = { level: 0 } as const;

export async function buildArchive(db: Db, storage: MediaStorage, userId: string, now: Date): Promise<Buffer> {
  const { files, mediaUrls } = await collectMemberData(db, userId);
  const entries: Zippable = { 'README.txt': strToU8(readmeText(now)) };
  for (const [name, value] of Object.entries(files)) entries[name] = strToU8(JSON.stringify(value, null, 2));
  const media: Zippable = {};
  for (const url of mediaUrls) {
    const key = storage.keyFromUrl(url);
    if (!key) continue;
    const bytes = await storage.read(key);
    // A file already swept (its post expired meanwhile) is simply not in the archive.
    if (bytes) media[key] = [new Uint8Array(bytes), STORED];
  }
  if (Object.keys(media).length > 0) entries.media = media;
  return Buffer.from(zipSync(entries, { level: 6, mtime: now }));
}
