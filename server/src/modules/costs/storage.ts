/**
 * Every write and delete of a paid media store (S3) counts as a storage operation (capped at
 * 10 000 a day); the local disk is this server's own and costs nobody an operation.
 */
import type { MediaStorage } from '../../adapters/storage/types.ts';
import type { CostMonitor } from './monitor.ts';

/** The same store (its other fields, such as the local directory, kept) with counted writes. */
export function countStorageOperations<S extends MediaStorage>(storage: S, costs: CostMonitor): S {
  if (storage.kind !== 's3') return storage;
  return {
    ...storage,
    put: (key: string, body: Buffer, contentType: string) => {
      costs.count('storage_operations');
      return storage.put(key, body, contentType);
    },
    delete: (key: string) => {
      costs.count('storage_operations');
      return storage.delete(key);
    },
  };
}
