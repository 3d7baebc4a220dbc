/** Picks the media store from the configuration: S3 when `S3_*` is set, else local disk. */
import path from 'node:path';
import type { Config } from '../../config.ts';
import { createLocalStorage } from './local.ts';
import { createS3Storage } from './s3.ts';
import type { MediaStorage } from './types.ts';

export { createLocalStorage, LOCAL_MEDIA_PREFIX, type LocalMediaStorage, type LocalStorageOptions } from './local.ts';
export { createS3Storage, bucketBaseUrl, StorageError, type S3Config, type S3StorageOptions } from './s3.ts';
export { isValidKey, MEDIA_CACHE_CONTROL, type MediaStorage } from './types.ts';

/** Local media URLs are root-relative (`/media/<key>`), so PUBLIC_URL plays no part in them. */
export function createStorage(config: Pick<Config, 's3' | 'dataDir'>): MediaStorage {
  if (config.s3) return createS3Storage(config.s3);
  return createLocalStorage({ dir: config.dataDir === null ? null : path.join(config.dataDir, 'media') });
}
