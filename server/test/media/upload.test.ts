/**
 * Uploads through a real Fastify app with @fastify/multipart: byte limits while streaming,
 * one file only, file-name rules, then the magic number, re-encoding and storage end to end.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import multipartPlugin from '@fastify/multipart';
import Fastify, { type FastifyInstance } from 'fastify';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalStorage, type LocalMediaStorage } from '../../src/adapters/storage/local.ts';
import { installErrorHandler } from '../../src/http/error-handler.ts';
import mediaRoutes from '../../src/modules/media/routes.ts';
import { storeImage, storeVoiceMessage } from '../../src/modules/media/service.ts';
import { isAcceptableFilename, readUpload, UPLOAD_LIMITS, type UploadKind } from '../../src/modules/media/upload.ts';
import { multipart, photo, png, type FormPart } from './fixtures.ts';
import { recording } from './webm-writer.ts';

const MB = 1024 * 1024;
let app: FastifyInstance;
let storage: LocalMediaStorage;
/** Socket bytes read when the last refusal was thrown (streaming check). */
let bytesReadAtRefusal = 0;

beforeAll(async () => {
  storage = createLocalStorage({ dir: null });
  app = Fastify();
  installErrorHandler(app);
  await app.register(multipartPlugin);
  await app.register(mediaRoutes, { storage });
  // Raw: the bytes as read, to test the limits with any content.
  app.post<{ Params: { kind: UploadKind } }>('/raw/:kind', async (request) => {
    try {
      const { file, fields } = await readUpload(request, request.params.kind);
      return { bytes: file?.body.length ?? null, filename: file?.filename ?? null, fields };
    } catch (error) {
      bytesReadAtRefusal = request.raw.socket.bytesRead;
      throw error;
    }
  });
  // The real thing: checked, re-encoded, stored.
  app.post<{ Params: { kind: 'post' | 'avatar' | 'chat' } }>('/image/:kind', async (request) => {
    const { file, fields } = await readUpload(request, request.params.kind, { required: true, field: 'image' });
    return { image: await storeImage(storage, file!.body, request.params.kind), fields };
  });
  app.post('/voice', async (request) => {
    const { file } = await readUpload(request, 'audio', { required: true });
    return storeVoiceMessage(storage, file!.body);
  });
  await app.ready();
});

afterAll(async () => {
  await app?.close();
  await storage?.dispose();
});

function post(url: string, parts: FormPart[]) {
  const { payload, headers } = multipart(parts);
  return app.inject({ method: 'POST', url, payload, headers });
}

const file = (body: Buffer, filename = 'photo.jpg', contentType = 'image/jpeg'): FormPart => ({
  name: 'image',
  file: { filename, contentType, body },
});

/** A real JPEG signature followed by filler up to `size` bytes: what the limits tests need. */
let tinyJpeg: Buffer;
beforeAll(async () => {
  tinyJpeg = await photo(8, 8);
});
const jpegOf = (size: number) => Buffer.concat([tinyJpeg, Buffer.alloc(Math.max(0, size - tinyJpeg.length), 1)]);

describe('readUpload: byte limits', () => {
  const cases: Array<[UploadKind, number, string]> = [
    ['post', 10 * MB, "La taille de l'image ne doit pas dépasser 10MB"],
    ['avatar', 5 * MB, "La taille de l'image ne doit pas dépasser 5MB"],
    ['chat', 5_242_880, "La taille de l'image ne doit pas dépasser 5MB"],
    ['audio', 5 * MB, 'Fichier audio trop volumineux (max 5MB)'],
  ];
  it.each(cases)('%s: exactly the limit passes, one byte more is a 413 with its text', async (kind, limit, text) => {
    expect(UPLOAD_LIMITS[kind].maxBytes).toBe(limit);
    const exact = await post(`/raw/${kind}`, [file(jpegOf(limit))]);
    expect(exact.statusCode).toBe(200);
    expect(exact.json().bytes).toBe(limit);

    const over = await post(`/raw/${kind}`, [file(jpegOf(limit + 1))]);
    expect(over.statusCode).toBe(413);
    expect(over.json()).toEqual({ error: { code: UPLOAD_LIMITS[kind].tooLarge, message: text } });
  });

  it('stops reading at the limit while the body is still streaming in', async () => {
    // A real socket and a chunked 40 MB body with no Content-Length: the answer comes once the
    // limit is crossed, long before the client has sent everything.
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as AddressInfo;
    const boundary = 'streamtest';
    const head = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="image"; filename="big.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`,
    );
    const chunk = Buffer.alloc(256 * 1024, 7);
    let sent = 0;
    const response = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = http.request({
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/raw/avatar',
        headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'transfer-encoding': 'chunked' },
      });
      let answered = false;
      req.on('response', (res) => {
        answered = true;
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (d) => (body += d));
        res.on('end', () => {
          req.destroy();
          resolve({ status: res.statusCode ?? 0, body });
        });
      });
      req.on('error', (error) => (answered ? undefined : reject(error)));
      req.write(head);
      const pump = () => {
        while (!answered && sent < 40 * MB) {
          sent += chunk.length;
          if (!req.write(chunk)) return void req.once('drain', pump);
        }
        if (!answered) req.end(Buffer.from(`\r\n--${boundary}--\r\n`));
      };
      pump();
    });
    expect(response.status).toBe(413);
    expect(JSON.parse(response.body).error.message).toBe("La taille de l'image ne doit pas dépasser 5MB");
    expect(bytesReadAtRefusal).toBeGreaterThan(5 * MB);
    expect(bytesReadAtRefusal).toBeLessThan(7 * MB);
    expect(sent).toBeLessThan(40 * MB);
  });

  it('refuses at once a request whose declared length is far over the limit', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/raw/chat',
      headers: { 'content-type': 'multipart/form-data; boundary=x', 'content-length': String(50 * MB) },
      payload: Buffer.alloc(10),
    });
    expect(res.statusCode).toBe(413);
  });
});

describe('readUpload: form rules', () => {
  it('returns the text fields with the file, before or after it', async () => {
    const image = await png(4, 4);
    const res = await post('/raw/post', [
      { name: 'category', value: 'happy' },
      file(image, 'pic.png', 'image/png'),
      { name: 'content', value: 'Bonjour la Réunion 🌋' },
    ]);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      bytes: image.length,
      filename: 'pic.png',
      fields: { category: 'happy', content: 'Bonjour la Réunion 🌋' },
    });
  });

  it('accepts a form without a file unless one is required', async () => {
    expect((await post('/raw/post', [{ name: 'content', value: 'texte seul' }])).json()).toEqual({
      bytes: null,
      filename: null,
      fields: { content: 'texte seul' },
    });
    const res = await post('/image/post', [{ name: 'content', value: 'texte seul' }]);
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe('upload_failed');
  });

  it('refuses an empty file', async () => {
    const res = await post('/raw/post', [file(Buffer.alloc(0), 'vide.jpg')]);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      error: { code: 'upload_validation_failed', message: 'Erreur de validation pour vide.jpg' },
    });
  });

  it("treats an HTML form's empty file input (no name, no bytes) as no file", async () => {
    const res = await post('/raw/post', [
      file(Buffer.alloc(0), '', 'application/octet-stream'),
      { name: 'content', value: 'texte' },
    ]);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ bytes: null, filename: null, fields: { content: 'texte' } });
  });

  it('refuses a second file', async () => {
    const res = await post('/raw/post', [file(tinyJpeg, 'a.jpg'), file(tinyJpeg, 'b.jpg')]);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      error: { code: 'upload_too_many_files', message: 'Vous ne pouvez sélectionner que 1 fichiers maximum' },
    });
    // The app is still answering normally afterwards.
    expect((await post('/raw/post', [file(tinyJpeg)])).statusCode).toBe(200);
  });

  it('refuses a file under an unexpected field name', async () => {
    const res = await post('/image/post', [
      { name: 'other', file: { filename: 'a.png', contentType: 'image/png', body: await png(10, 10) } },
    ]);
    expect(res.statusCode).toBe(400);
  });

  it('refuses a request that is not multipart', async () => {
    const res = await app.inject({ method: 'POST', url: '/raw/post', payload: { image: 'data' } });
    expect(res.statusCode).toBe(415);
    expect(res.json().error.code).toBe('bad_request');
  });

  it('answers a truncated multipart body with a 400, not a 500', async () => {
    const { payload, headers } = multipart([file(Buffer.alloc(5000, 3))]);
    const cut = payload.subarray(0, 3000);
    const res = await app.inject({
      method: 'POST',
      url: '/raw/post',
      payload: cut,
      headers: { ...headers, 'content-length': String(cut.length) },
    });
    expect(res.statusCode).toBe(400);
  });

  it.each([
    ['a 256-character name', `${'a'.repeat(252)}.jpg`],
    ['a forbidden character', 'pho<to>.jpg'],
    ['a dangerous extension', 'photo.php'],
    ['a dangerous inner extension', 'photo.php.jpg'],
    ['an executable', 'setup.exe'],
    ['a script', 'run.sh'],
    ['a reserved device name', 'CON.jpg'],
    ['another reserved name', 'lpt1.png'],
  ])('refuses a file name with %s', async (_label, filename) => {
    expect(isAcceptableFilename(filename)).toBe(false);
    const res = await post('/raw/post', [file(Buffer.from('x'), filename)]);
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe('upload_validation_failed');
    expect(res.json().error.message).toMatch(/^Erreur de validation pour /);
  });

  it('refuses paths in names', () => {
    for (const name of ['../../etc/passwd.jpg', 'C:\\Windows\\x.jpg', 'a/b.png', '..', 'photo.jpg.', 'nul'])
      expect(isAcceptableFilename(name), name).toBe(false);
  });

  // Busboy keeps only the part after the last separator unless told otherwise: these names
  // would arrive as `x.jpg`, `b.jpg`... and pass. The raw name is what the check judges.
  it.each([
    ['a parent-directory path', '../x.jpg', '../x.jpg'],
    ['a forward slash', 'a/b.jpg', 'a/b.jpg'],
    ['a backslash', 'a\\b.jpg', 'a\\b.jpg'],
    ['an absolute Windows path', 'C:\\Users\\x.jpg', 'C:\\Users\\x.jpg'],
    ['a bare ..', '..', '..'],
  ])('refuses %s in the raw multipart file name', async (_label, wireName, shown) => {
    const boundary = 'rawnames';
    const payload = Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="image"; filename="${wireName}"\r\nContent-Type: image/jpeg\r\n\r\n`,
      ),
      tinyJpeg,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const res = await app.inject({
      method: 'POST',
      url: '/raw/post',
      payload,
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      error: { code: 'upload_validation_failed', message: `Erreur de validation pour ${shown}` },
    });
  });

  it('accepts ordinary names, accents and MediaRecorder blobs', () => {
    for (const name of [
      'IMG_2024.JPG',
      'photo de vacances.jpeg',
      'été à Saint-Denis (1).png',
      'blob',
      '',
      'a'.repeat(251) + '.jpg',
      'console.jpg',
      'com10.png',
    ]) {
      expect(isAcceptableFilename(name), name).toBe(true);
    }
  });
});

describe('readUpload: the declared type must be what the magic number says', () => {
  it('refuses PNG bytes declared image/jpeg', async () => {
    const res = await post('/raw/post', [file(await png(20, 20), 'photo.jpg', 'image/jpeg')]);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      error: { code: 'upload_validation_failed', message: 'Erreur de validation pour photo.jpg' },
    });
  });

  it.each<[UploadKind, string]>([
    ['avatar', 'image/gif'],
    ['chat', 'image/webp'],
    ['post', 'image/png'],
  ])('%s: refuses a JPEG declared %s', async (kind, declared) => {
    const res = await post(`/raw/${kind}`, [file(tinyJpeg, 'photo.jpg', declared)]);
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe('upload_validation_failed');
  });

  it('refuses a real image declared as a type that is not an image', async () => {
    const res = await post('/raw/post', [file(await png(20, 20), 'photo.png', 'text/plain')]);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      error: { code: 'image_type_invalid', message: 'Type de fichier non autorisé. Utilisez JPEG, PNG, GIF ou WebP.' },
    });
  });

  it('accepts each type declared as itself, with the usual spellings', async () => {
    const cases: Array<[Buffer, string]> = [
      [tinyJpeg, 'image/jpeg'],
      [tinyJpeg, 'image/jpg'],
      [tinyJpeg, 'IMAGE/JPEG'],
      [await png(4, 4), 'image/png'],
      [
        await sharp({ create: { width: 4, height: 4, channels: 3, background: '#fff' } })
          .gif()
          .toBuffer(),
        'image/gif',
      ],
      [
        await sharp({ create: { width: 4, height: 4, channels: 3, background: '#fff' } })
          .webp()
          .toBuffer(),
        'image/webp',
      ],
    ];
    for (const [body, declared] of cases) {
      const res = await post('/raw/post', [file(body, 'photo', declared)]);
      expect(res.statusCode, declared).toBe(200);
    }
  });

  it('leaves voice messages to their own WebM check, whatever the label', async () => {
    const { payload, headers } = multipart([
      { name: 'audio', file: { filename: 'blob', contentType: 'video/webm', body: recording(1.5) } },
    ]);
    expect((await app.inject({ method: 'POST', url: '/voice', payload, headers })).statusCode).toBe(200);
  });
});

describe('uploaded images end to end', () => {
  it('takes a PNG named .jpg and declared image/png as the PNG it is', async () => {
    const res = await post('/image/post', [file(await png(300, 200), 'photo.jpg', 'image/png')]);
    expect(res.statusCode).toBe(200);
    const { image } = res.json();
    expect(image.key).toMatch(/^publications\/[0-9a-f-]{36}\.webp$/);
    expect(image.url).toBe(`/media/${image.key}`);
    expect(image.thumb.key).toBe(image.key.replace('.webp', '-thumb.webp'));
    expect([image.width, image.height]).toEqual([300, 200]);
  });

  it('refuses a text file named photo.jpg and declared image/jpeg', async () => {
    const res = await post('/image/post', [
      file(Buffer.from('<html><script>alert(1)</script></html>'), 'photo.jpg', 'image/jpeg'),
    ]);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      error: { code: 'image_type_invalid', message: 'Type de fichier non autorisé. Utilisez JPEG, PNG, GIF ou WebP.' },
    });
  });

  it('stores a photo with GPS tags without them, served from /media', async () => {
    const input = await photo(800, 600, { gps: true });
    expect((await sharp(input).metadata()).exif?.toString('latin1')).toContain('WGS-84');
    const res = await post('/image/avatar', [file(input, 'moi.jpg'), { name: 'purpose', value: 'avatar' }]);
    expect(res.statusCode).toBe(200);
    const { image, fields } = res.json();
    expect(fields).toEqual({ purpose: 'avatar' });
    expect(image.key).toMatch(/^avatars\/[0-9a-f-]{36}\.webp$/);
    for (const key of [image.key, image.thumb.key]) {
      const served = await app.inject(`/media/${key}`);
      expect(served.statusCode).toBe(200);
      expect(served.headers['content-type']).toBe('image/webp');
      const meta = await sharp(served.rawPayload).metadata();
      expect(meta.exif).toBeUndefined();
      expect(served.rawPayload.toString('latin1')).not.toContain('WGS-84');
    }
    expect([image.width, image.height, image.thumb.width]).toEqual([512, 512, 128]);
  });

  it('stores a chat image under message-images/', async () => {
    const res = await post('/image/chat', [file(await photo(2000, 1000))]);
    expect(res.json().image.key).toMatch(/^message-images\/[0-9a-f-]{36}\.webp$/);
    expect(res.json().image.width).toBe(1600);
    expect(res.json().image.thumb).toBeUndefined();
  });

  it('stores a voice message under voice-messages/ as audio/webm with its duration', async () => {
    const { payload, headers } = multipart([
      { name: 'audio', file: { filename: 'blob', contentType: 'audio/webm;codecs=opus', body: recording(4.2) } },
    ]);
    const res = await app.inject({ method: 'POST', url: '/voice', payload, headers });
    expect(res.statusCode).toBe(200);
    const voice = res.json();
    expect(voice.key).toMatch(/^voice-messages\/[0-9a-f-]{36}\.webm$/);
    expect(voice.durationSeconds).toBeCloseTo(4.2, 2);
    const served = await app.inject(`/media/${voice.key}`);
    expect(served.headers['content-type']).toBe('audio/webm');
    expect(served.rawPayload.equals(recording(4.2))).toBe(true);
  });
});
