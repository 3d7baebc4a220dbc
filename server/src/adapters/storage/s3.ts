/**
 * Media in an S3-compatible bucket (AWS S3, MinIO, Cloudflare R2, Scaleway, OVH...), with
 * requests signed by aws4fetch's SigV4 signer (PUT, GET and DELETE object: no SDK). Path-style
 * URLs when an endpoint is configured (what MinIO and most compatible stores need), virtual-hosted
 * AWS URLs otherwise.
 *
 * The bucket (or the CDN in front of it, S3_PUBLIC_URL) must allow public reads of objects:
 * no ACL header is sent, since buckets with "bucket owner enforced" ownership refuse them.
 */
import { createHash } from 'node:crypto';
import { AwsV4Signer } from 'aws4fetch';
import type { Config } from '../../config.ts';
import { assertValidKey, encodeKey, keyUnder, MEDIA_CACHE_CONTROL, type MediaStorage } from './types.ts';

export type S3Config = NonNullable<Config['s3']>;

export interface S3StorageOptions {
  /** Injected in tests; defaults to the global fetch. */
  fetch?: typeof fetch;
  /** Signing clock; tests fix it. */
  now?: () => Date;
  /** Per request; a PUT of 10 MB on a slow link still fits. */
  timeoutMs?: number;
}

export class StorageError extends Error {
  readonly status?: number;
  constructor(message: string, status?: number) {
    super(message);
    this.status = status;
  }
}

/** Base URL of the bucket's objects, without a trailing slash. */
export function bucketBaseUrl(s3: S3Config): string {
  if (s3.endpoint) return `${s3.endpoint.replace(/\/+$/, '')}/${encodeURIComponent(s3.bucket)}`;
  return `https://${s3.bucket}.s3.${s3.region}.amazonaws.com`;
}

/** `20150830T123600Z`, the signer's clock format. */
export function amzDate(date: Date): string {
  return date.toISOString().replace(/[-:]|\.\d{3}/g, '');
}

/** An S3 answer that is no success, as the error a caller sees. */
async function failure(method: string, key: string, response: Response): Promise<StorageError> {
  return new StorageError(
    `S3 ${method} ${key}: HTTP ${response.status} ${(await response.text()).slice(0, 300)}`,
    response.status,
  );
}

/** Signed requests on the bucket's objects; a server error (5xx) or a network failure is tried once more. */
function s3Requests(s3: S3Config, options: S3StorageOptions) {
  const doFetch = options.fetch ?? fetch;
  const now = options.now ?? (() => new Date());
  const timeoutMs = options.timeoutMs ?? 30_000;
  const objectBase = bucketBaseUrl(s3);
  const credentials = { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey };
  // Derived signing keys, shared by every request of this store (one per day).
  const cache = new Map<string, ArrayBuffer>();

  return async function send(
    method: 'PUT' | 'GET' | 'DELETE',
    key: string,
    body?: Buffer,
    extra: Record<string, string> = {},
  ): Promise<Response> {
    assertValidKey(key);
    const url = `${objectBase}/${encodeKey(key)}`;
    const payload = body ? new Uint8Array(body.buffer, body.byteOffset, body.byteLength) : undefined;
    // The payload is signed (not UNSIGNED-PAYLOAD): the store refuses a body altered on the way.
    const payloadHash = createHash('sha256')
      .update(payload ?? '')
      .digest('hex');
    let lastError: unknown;
    // One retry: every request is idempotent, and S3 answers an occasional 500/503.
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        const signed = await new AwsV4Signer({
          method,
          url,
          headers: { ...extra, 'x-amz-content-sha256': payloadHash },
          ...credentials,
          service: 's3',
          region: s3.region,
          datetime: amzDate(now()),
          cache,
        }).sign();
        const response = await doFetch(signed.url, {
          method,
          headers: signed.headers,
          body: payload,
          signal: AbortSignal.timeout(timeoutMs),
        });
        if (response.status < 500) return response;
        lastError = await failure(method, key, response);
      } catch (error) {
        lastError = error;
      }
    }
    throw lastError instanceof StorageError
      ? lastError
      : new StorageError(`S3 ${method} ${key}: ${String((lastError as Error)?.message ?? lastError)}`);
  };
}

export function createS3Storage(s3: S3Config, options: S3StorageOptions = {}): MediaStorage {
  const send = s3Requests(s3, options);
  const publicBase = (s3.publicUrl ?? bucketBaseUrl(s3)).replace(/\/+$/, '');

  return {
    kind: 's3',
    async put(key, body, contentType) {
      const response = await send('PUT', key, body, {
        'content-type': contentType,
        'cache-control': MEDIA_CACHE_CONTROL,
      });
      if (!response.ok) throw await failure('PUT', key, response);
      await response.arrayBuffer();
    },
    async delete(key) {
      const response = await send('DELETE', key);
      // 404: already gone, which is what a delete wants.
      if (!response.ok && response.status !== 404) throw await failure('DELETE', key, response);
      await response.arrayBuffer();
    },
    async read(key) {
      const response = await send('GET', key);
      if (response.status === 404) {
        await response.arrayBuffer();
        return null;
      }
      if (!response.ok) throw await failure('GET', key, response);
      return Buffer.from(await response.arrayBuffer());
    },
    url: (key) => {
      assertValidKey(key);
      return `${publicBase}/${encodeKey(key)}`;
    },
    keyFromUrl: (url) => keyUnder(publicBase, url),
  };
}
