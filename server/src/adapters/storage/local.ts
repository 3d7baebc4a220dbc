/**
 * Media on local disk: `<dir>/<key>`, served by the /media route (modules/media/routes.ts).
 * Writes go to a temporary file renamed into place, so a reader never sees half a file.
 *
 * URLs are root-relative (`/media/<key>`): the web app is always same-origin with the API, so
 * a stored URL keeps working whatever address the server is reached at (a phone on the LAN,
 * another PORT or PUBLIC_URL). Rows written before held absolute URLs; keyFromUrl still reads
 * them, and modules/media/relative-urls.ts rewrites them at start-up.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { mkdir, readFile, rename, rm, unlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { assertValidKey, encodeKey, keyUnder, type MediaStorage } from './types.ts';

export interface LocalMediaStorage extends MediaStorage {
  readonly kind: 'local';
  /** Absolute root of the stored files. */
  readonly dir: string;
  /** Absolute path of a key's file (the key is validated). */
  pathOf(key: string): string;
  /** Removes the root when it is a temporary directory made for tests; otherwise does nothing. */
  dispose(): Promise<void>;
}

export interface LocalStorageOptions {
  /** Root directory; `null` makes a fresh temporary one (tests, in-memory configurations). */
  dir: string | null;
}

/** URL path of the local media route; stored URLs are `/media/<key>`. */
export const LOCAL_MEDIA_PREFIX = '/media';

/** The scheme and host of a legacy absolute URL of the /media route, whatever the host was. */
const LEGACY_ORIGIN = /^https?:\/\/[^/?#]+(?=\/media\/)/i;

export function createLocalStorage({ dir }: LocalStorageOptions): LocalMediaStorage {
  const temporary = dir === null;
  const root = path.resolve(dir ?? mkdtempSync(path.join(os.tmpdir(), 'moodmap-media-')));
  mkdirSync(root, { recursive: true });

  const pathOf = (key: string): string => {
    assertValidKey(key);
    const file = path.resolve(root, ...key.split('/'));
    // Defence in depth: the key check already forbids every way out of the root.
    if (!file.startsWith(root + path.sep)) throw new Error('Clé de média hors du répertoire');
    return file;
  };

  return {
    kind: 'local',
    dir: root,
    pathOf,
    async put(key, body) {
      const file = pathOf(key);
      await mkdir(path.dirname(file), { recursive: true });
      const tmp = `${file}.${randomBytes(6).toString('hex')}.tmp`;
      try {
        await writeFile(tmp, body, { flag: 'wx' });
        await rename(tmp, file);
      } catch (error) {
        await rm(tmp, { force: true });
        throw error;
      }
    },
    async delete(key) {
      try {
        await unlink(pathOf(key));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      }
    },
    async read(key) {
      try {
        return await readFile(pathOf(key));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw error;
      }
    },
    url: (key) => {
      assertValidKey(key);
      return `${LOCAL_MEDIA_PREFIX}/${encodeKey(key)}`;
    },
    // Also `http(s)://<any host>/media/<key>`: rows from before URLs were relative, so that
    // deleting an old post or avatar still removes its files.
    keyFromUrl: (url) => keyUnder(LOCAL_MEDIA_PREFIX, url.replace(LEGACY_ORIGIN, '')),
    async dispose() {
      if (temporary) rmSync(root, { recursive: true, force: true });
    },
  };
}
