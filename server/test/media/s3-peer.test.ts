/**
 * The S3 adapter against a real S3-compatible server (s3rver, run in this process on a free
 * loopback port): it speaks S3's protocol and errors, refuses unknown access keys, stores the
 * objects on disk and serves them back at the URLs the adapter hands to browsers. It does not
 * check SigV4 signatures: s3.test.ts's fake S3 does.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createS3Storage, StorageError } from '../../src/adapters/storage/s3.ts';

const BUCKET = 'moodmap-media';
/** s3rver's one account. */
const CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

describe('S3 storage against an S3-compatible server (s3rver)', () => {
  const directory = mkdtempSync(path.join(os.tmpdir(), 'moodmap-s3rver-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: BUCKET, configs: [] }],
  });
  let endpoint = '';
  const config = () => ({ endpoint, region: 'us-east-1', bucket: BUCKET, ...CREDENTIALS });

  beforeAll(async () => {
    const address = await server.run();
    endpoint = `http://127.0.0.1:${address.port}`;
  });
  afterAll(async () => {
    await server.close();
    rmSync(directory, { recursive: true, force: true });
  });

  it('stores an object, serves it at its public URL with its type, reads it back, then deletes it', async () => {
    const storage = createS3Storage(config());
    const body = Buffer.from('RIFF....WEBPVP8 une image');
    await storage.put('publications/peer.webp', body, 'image/webp');

    const served = await fetch(storage.url('publications/peer.webp'));
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/webp');
    expect(Buffer.from(await served.arrayBuffer()).equals(body)).toBe(true);
    expect((await storage.read('publications/peer.webp'))?.equals(body)).toBe(true);

    await storage.delete('publications/peer.webp');
    expect((await fetch(storage.url('publications/peer.webp'))).status).toBe(404);
    expect(await storage.read('publications/peer.webp')).toBeNull();
    // Deleting what is gone is not an error (sweepers may run twice).
    await expect(storage.delete('publications/peer.webp')).resolves.toBeUndefined();
  });

  it('is refused with an access key the server does not know, and stores nothing', async () => {
    const storage = createS3Storage({ ...config(), accessKeyId: 'INCONNUE' });
    await expect(storage.put('avatars/refused.webp', Buffer.from('x'), 'image/webp')).rejects.toBeInstanceOf(
      StorageError,
    );
    expect(await createS3Storage(config()).read('avatars/refused.webp')).toBeNull();
  });
});
