/**
 * The S3 adapter: its use of aws4fetch's SigV4 signer against AWS's published examples, then
 * PUT/DELETE against a fake S3 on the loopback interface (no network) that checks each
 * request's signature and payload hash.
 */
import { createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { AwsV4Signer } from 'aws4fetch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { amzDate, bucketBaseUrl, createS3Storage, StorageError } from '../../src/adapters/storage/s3.ts';

const sha256 = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');
const EMPTY_PAYLOAD_SHA256 = sha256('');

describe('SigV4 signing against AWS published examples', () => {
  it('"get-vanilla" of the Signature Version 4 test suite', async () => {
    const signer = new AwsV4Signer({
      method: 'GET',
      url: 'https://example.amazonaws.com/',
      accessKeyId: 'AKIDEXAMPLE',
      secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY',
      service: 'service',
      region: 'us-east-1',
      datetime: amzDate(new Date('2015-08-30T12:36:00Z')),
    });
    expect(await signer.canonicalString()).toBe(
      'GET\n/\n\nhost:example.amazonaws.com\nx-amz-date:20150830T123600Z\n\nhost;x-amz-date\ne3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
    );
    expect(await signer.stringToSign()).toBe(
      'AWS4-HMAC-SHA256\n20150830T123600Z\n20150830/us-east-1/service/aws4_request\nbb579772317eb040ac9ed261061d46c1f17a8133879d6129b6e1c25292927e63',
    );
    expect(await signer.authHeader()).toBe(
      'AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request, SignedHeaders=host;x-amz-date, Signature=5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31',
    );
  });

  const s3Example = {
    accessKeyId: 'AKIAIOSFODNN7EXAMPLE',
    secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
    service: 's3',
    region: 'us-east-1',
    datetime: '20130524T000000Z',
  };

  it('S3 "PUT Object" example (a $ in the key, a signed payload)', async () => {
    const body = 'Welcome to Amazon S3.';
    const payloadHash = sha256(body);
    expect(payloadHash).toBe('44ce7dd67c959e0d3524ffac1771dfbba87d2b6b4b4e99e42034a8b803f8b072');
    const signer = new AwsV4Signer({
      method: 'PUT',
      url: 'https://examplebucket.s3.amazonaws.com/test%24file.text',
      headers: {
        Date: 'Fri, 24 May 2013 00:00:00 GMT',
        'x-amz-storage-class': 'REDUCED_REDUNDANCY',
        'x-amz-content-sha256': payloadHash,
      },
      body,
      ...s3Example,
    });
    expect(await signer.authHeader()).toBe(
      'AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request, SignedHeaders=date;host;x-amz-content-sha256;x-amz-date;x-amz-storage-class, Signature=98ad721746da40c64f1a55b78f14c238d841ea1380cd77a1b5971af0ece108bd',
    );
  });

  it('S3 "GET Object" example (a Range header, signed only when every header is)', async () => {
    const signer = new AwsV4Signer({
      method: 'GET',
      url: 'https://examplebucket.s3.amazonaws.com/test.txt',
      headers: { Range: 'bytes=0-9', 'x-amz-content-sha256': EMPTY_PAYLOAD_SHA256 },
      allHeaders: true,
      ...s3Example,
    });
    expect(await signer.signature()).toBe('f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41');
  });
});

interface Received {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

describe('S3 storage against a fake S3 (path-style, like MinIO)', () => {
  const credentials = { accessKeyId: 'minio-access', secretAccessKey: 'minio-secret-key-0123456789' };
  const objects = new Map<string, { body: Buffer; headers: http.IncomingHttpHeaders }>();
  const received: Received[] = [];
  /** Status codes to answer before behaving (to test the retry). */
  const failures: number[] = [];
  let server: http.Server;
  let endpoint: string;

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', async () => {
        const body = Buffer.concat(chunks);
        received.push({ method: req.method!, url: req.url!, headers: req.headers, body });
        const failure = failures.shift();
        if (failure) return void res.writeHead(failure).end('<Error><Code>SlowDown</Code></Error>');
        // Re-sign what arrived with the same secret: the signature must match.
        const auth = String(req.headers.authorization);
        const signedNames = /SignedHeaders=([^,]+)/.exec(auth)?.[1].split(';') ?? [];
        const headers: Record<string, string> = {};
        for (const name of signedNames) if (name !== 'host') headers[name] = String(req.headers[name]);
        const expected = await new AwsV4Signer({
          method: req.method!,
          url: new URL(req.url!, `http://${req.headers.host}`).toString(),
          headers,
          ...credentials,
          service: 's3',
          region: 'eu-west-3',
          datetime: String(req.headers['x-amz-date']),
        }).authHeader();
        if (expected !== auth || sha256(body) !== req.headers['x-amz-content-sha256']) {
          return void res.writeHead(403).end('<Error><Code>SignatureDoesNotMatch</Code></Error>');
        }
        const key = decodeURIComponent(req.url!);
        if (req.method === 'PUT') {
          objects.set(key, { body, headers: req.headers });
          return void res.writeHead(200, { etag: `"${sha256(body).slice(0, 32)}"` }).end();
        }
        if (req.method === 'DELETE') {
          objects.delete(key);
          return void res.writeHead(204).end();
        }
        res.writeHead(405).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const config = () => ({ endpoint, region: 'eu-west-3', bucket: 'moodmap-media', ...credentials });

  it('PUTs with a valid signature, the content type and immutable caching, then DELETEs', async () => {
    const storage = createS3Storage(config());
    const body = Buffer.from('RIFF....WEBPVP8 image');
    await storage.put('publications/4d9f.webp', body, 'image/webp');
    const stored = objects.get('/moodmap-media/publications/4d9f.webp');
    expect(stored?.body.equals(body)).toBe(true);
    expect(stored?.headers['content-type']).toBe('image/webp');
    expect(stored?.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(stored?.headers['x-amz-acl']).toBeUndefined();
    expect(storage.url('publications/4d9f.webp')).toBe(`${endpoint}/moodmap-media/publications/4d9f.webp`);
    expect(storage.keyFromUrl(storage.url('publications/4d9f.webp'))).toBe('publications/4d9f.webp');

    await storage.delete('publications/4d9f.webp');
    expect(objects.has('/moodmap-media/publications/4d9f.webp')).toBe(false);
  });

  it('fails loudly on a wrong secret (403), without retrying', async () => {
    const storage = createS3Storage({ ...config(), secretAccessKey: 'wrong' });
    const before = received.length;
    await expect(storage.put('avatars/x.webp', Buffer.from('x'), 'image/webp')).rejects.toBeInstanceOf(StorageError);
    expect(received.length - before).toBe(1);
  });

  it('retries once on a 503', async () => {
    const storage = createS3Storage(config());
    failures.push(503);
    await storage.put('voice-messages/v.webm', Buffer.from('webm'), 'audio/webm');
    expect(objects.get('/moodmap-media/voice-messages/v.webm')?.headers['content-type']).toBe('audio/webm');
    failures.push(503, 503);
    await expect(storage.put('voice-messages/w.webm', Buffer.from('webm'), 'audio/webm')).rejects.toThrow(/503/);
  });

  it('never sends a key that could escape the bucket prefix', async () => {
    const storage = createS3Storage(config());
    await expect(storage.put('../other-bucket/x.webp', Buffer.from('x'), 'image/webp')).rejects.toThrow();
    expect(() => storage.url('a/../../b.webp')).toThrow();
  });
});

describe('S3 URLs', () => {
  it('uses virtual-hosted AWS URLs without an endpoint, and S3_PUBLIC_URL for public links', async () => {
    const calls: string[] = [];
    const fakeFetch = (async (url: Parameters<typeof fetch>[0]) => {
      calls.push(String(url));
      return new Response(null, { status: 200 });
    }) as typeof fetch;
    const aws = createS3Storage(
      { region: 'eu-west-3', bucket: 'moodmap-media', accessKeyId: 'AK', secretAccessKey: 'SK' },
      { fetch: fakeFetch },
    );
    await aws.put('avatars/a.webp', Buffer.from('x'), 'image/webp');
    expect(calls).toEqual(['https://moodmap-media.s3.eu-west-3.amazonaws.com/avatars/a.webp']);
    expect(aws.url('avatars/a.webp')).toBe('https://moodmap-media.s3.eu-west-3.amazonaws.com/avatars/a.webp');

    const cdn = createS3Storage({
      region: 'auto',
      bucket: 'b',
      accessKeyId: 'AK',
      secretAccessKey: 'SK',
      endpoint: 'https://acct.r2.cloudflarestorage.com/',
      publicUrl: 'https://media.moodmap.example/',
    });
    expect(
      bucketBaseUrl({
        region: 'auto',
        bucket: 'b',
        accessKeyId: 'AK',
        secretAccessKey: 'SK',
        endpoint: 'https://acct.r2.cloudflarestorage.com/',
      }),
    ).toBe('https://acct.r2.cloudflarestorage.com/b');
    expect(cdn.url('publications/p.webp')).toBe('https://media.moodmap.example/publications/p.webp');
    expect(cdn.keyFromUrl('https://media.moodmap.example/publications/p.webp')).toBe('publications/p.webp');
    expect(cdn.keyFromUrl('https://acct.r2.cloudflarestorage.com/b/publications/p.webp')).toBeNull();
  });
});
