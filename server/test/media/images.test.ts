import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../src/errors.ts';
import { IMAGE_MAX_INPUT_PIXELS, processImage } from '../../src/modules/media/images.ts';
import { halves, photo, png, pngBomb, pngTruncated } from './fixtures.ts';

async function refusal(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

/** Mean colour of a region of an image, as [r, g, b]. */
async function meanColour(
  image: Buffer,
  region: { left: number; top: number; width: number; height: number },
): Promise<number[]> {
  // stats() reads its input, not the pipeline's output: extract first, then measure.
  const { channels } = await sharp(await sharp(image).extract(region).png().toBuffer()).stats();
  return channels.slice(0, 3).map((c) => Math.round(c.mean));
}

describe('processImage: type by magic number', () => {
  it('accepts JPEG, PNG, GIF and WebP and always answers WebP', async () => {
    const sources = {
      jpeg: await photo(64, 48),
      png: await png(64, 48),
      gif: await sharp({ create: { width: 64, height: 48, channels: 3, background: '#f0a' } })
        .gif()
        .toBuffer(),
      webp: await sharp({ create: { width: 64, height: 48, channels: 3, background: '#0af' } })
        .webp()
        .toBuffer(),
    };
    for (const [name, body] of Object.entries(sources)) {
      const result = await processImage(body, 'chat');
      expect(result.source.mime, name).toBe(`image/${name}`);
      expect(result.main.contentType).toBe('image/webp');
      expect((await sharp(result.main.body).metadata()).format).toBe('webp');
    }
  });

  it('refuses a text file whatever it claims to be', async () => {
    const html = Buffer.from('<!doctype html><script>alert(document.cookie)</script>');
    const error = await refusal(processImage(html, 'post'));
    expect(error.status).toBe(400);
    expect(error.code).toBe('image_type_invalid');
    expect(error.message).toBe('Type de fichier non autorisé. Utilisez JPEG, PNG, GIF ou WebP.');
  });

  it('refuses types outside the four, even real images (TIFF, SVG, AVIF)', async () => {
    const tiff = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#000' } })
      .tiff()
      .toBuffer();
    const svg = Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8"><script>alert(1)</script></svg>',
    );
    const avif = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#000' } })
      .avif()
      .toBuffer();
    for (const body of [tiff, svg, avif])
      expect((await refusal(processImage(body, 'post'))).code).toBe('image_type_invalid');
  });

  it('refuses a file with an image signature but broken data with a 400, not a crash', async () => {
    const truncated = (await photo(300, 200)).subarray(0, 400);
    const error = await refusal(processImage(truncated, 'post'));
    expect(error.status).toBe(400);
    expect(error.code).toBe('image_corrupt');
  });
});

describe('processImage: metadata and orientation', () => {
  it('removes EXIF and GPS entirely', async () => {
    const input = await photo(640, 480, { gps: true, orientation: 1 });
    const before = await sharp(input).metadata();
    expect(before.exif?.toString('latin1')).toContain('WGS-84'); // the fixture does carry a GPS directory
    expect(before.exif?.toString('latin1')).toContain('Secret Phone 3000');

    for (const kind of ['post', 'avatar', 'chat'] as const) {
      const result = await processImage(input, kind);
      for (const out of [result.main, result.thumb].filter((o) => o !== undefined)) {
        const meta = await sharp(out.body).metadata();
        expect(meta.exif, kind).toBeUndefined();
        expect(meta.xmp, kind).toBeUndefined();
        expect(meta.iptc, kind).toBeUndefined();
        expect(meta.icc, kind).toBeUndefined();
        const bytes = out.body.toString('latin1');
        expect(bytes).not.toContain('Exif');
        expect(bytes).not.toContain('WGS-84');
        expect(bytes).not.toContain('Secret Phone');
      }
    }
  });

  it('turns the pixels upright by the EXIF orientation before dropping it', async () => {
    // Stored 400×200 with red on the left; orientation 6 means "rotate 90° clockwise to view".
    const input = await halves(400, 200, 6);
    const { main } = await processImage(input, 'post');
    expect([main.width, main.height]).toEqual([200, 400]);
    const meta = await sharp(main.body).metadata();
    expect(meta.orientation).toBeUndefined();
    // After a clockwise quarter turn the left half (red) is on top.
    const top = await meanColour(main.body, { left: 50, top: 20, width: 100, height: 100 });
    const bottom = await meanColour(main.body, { left: 50, top: 280, width: 100, height: 100 });
    expect(top[0]).toBeGreaterThan(200);
    expect(top[2]).toBeLessThan(60);
    expect(bottom[2]).toBeGreaterThan(200);
    expect(bottom[0]).toBeLessThan(60);
  });
});

describe('processImage: sizes', () => {
  it('caps a post at 2048 px and makes a 256 px-wide thumbnail', async () => {
    const { main, thumb, source } = await processImage(await photo(3000, 2000), 'post');
    expect(source).toMatchObject({ width: 3000, height: 2000 });
    expect([main.width, main.height]).toEqual([2048, 1365]);
    expect(thumb).toBeDefined();
    expect([thumb!.width, thumb!.height]).toEqual([256, 171]);
    expect(thumb!.body.length).toBeLessThan(main.body.length / 5);
    expect((await sharp(thumb!.body).metadata()).format).toBe('webp');
  });

  it('caps a portrait post by its height and a very tall one keeps a 256 px-wide thumbnail under 768 px', async () => {
    const portrait = await processImage(await photo(1500, 2500), 'post');
    expect([portrait.main.width, portrait.main.height]).toEqual([1229, 2048]);
    expect(portrait.thumb!.width).toBe(256);
    const tall = await processImage(await png(300, 3000), 'post');
    expect(tall.thumb!.height).toBe(768);
    expect(tall.thumb!.width).toBeLessThan(256);
  });

  it('never enlarges a small post', async () => {
    const { main, thumb } = await processImage(await photo(120, 80), 'post');
    expect([main.width, main.height]).toEqual([120, 80]);
    expect([thumb!.width, thumb!.height]).toEqual([120, 80]);
  });

  it('caps a chat image at 1600 px with no thumbnail', async () => {
    const { main, thumb } = await processImage(await photo(2400, 1800), 'chat');
    expect([main.width, main.height]).toEqual([1600, 1200]);
    expect(thumb).toBeUndefined();
  });

  it('crops avatars to 512 and 128 px squares from the centre', async () => {
    const input = await halves(1200, 800);
    const { main, thumb } = await processImage(input, 'avatar');
    expect([main.width, main.height]).toEqual([512, 512]);
    expect([thumb!.width, thumb!.height]).toEqual([128, 128]);
    // The centre crop keeps both halves: red on the left, blue on the right.
    const left = await meanColour(main.body, { left: 10, top: 200, width: 100, height: 100 });
    const right = await meanColour(main.body, { left: 400, top: 200, width: 100, height: 100 });
    expect(left[0]).toBeGreaterThan(200);
    expect(right[2]).toBeGreaterThan(200);
  });

  it('keeps a small avatar square without enlarging it', async () => {
    const { main, thumb } = await processImage(await photo(300, 90), 'avatar');
    expect([main.width, main.height]).toEqual([90, 90]);
    expect([thumb!.width, thumb!.height]).toEqual([90, 90]);
  });

  it('keeps the first frame of an animated GIF', async () => {
    // Three 40×40 frames: red, green, blue.
    const raw = Buffer.alloc(40 * 120 * 3);
    for (let i = 0; i < 40 * 120; i++) raw[i * 3 + Math.floor(i / (40 * 40))] = 255;
    const gif = await sharp(raw, { raw: { width: 40, height: 120, channels: 3, pageHeight: 40 } })
      .gif({ loop: 0, delay: [100, 100, 100] })
      .toBuffer();
    expect((await sharp(gif).metadata()).pages).toBe(3);
    const result = await processImage(gif, 'post');
    expect(result.source.animated).toBe(true);
    expect([result.main.width, result.main.height]).toEqual([40, 40]);
    expect((await sharp(result.main.body).metadata()).pages ?? 1).toBe(1);
    const [r, g, b] = await meanColour(result.main.body, { left: 0, top: 0, width: 40, height: 40 });
    expect(r).toBeGreaterThan(200);
    expect(g).toBeLessThan(60);
    expect(b).toBeLessThan(60);
  });
});

describe('processImage: pixel floods', () => {
  it('refuses a 400-megapixel PNG bomb of 50 KB with a 400', async () => {
    const bomb = pngBomb(20_000, 20_000);
    expect(bomb.length).toBeLessThan(100_000);
    const error = await refusal(processImage(bomb, 'post'));
    expect(error.status).toBe(400);
    expect(error.code).toBe('image_too_many_pixels');
    expect(error.message).toBe("Les dimensions de l'image sont trop grandes (40 mégapixels maximum)");
  });

  it('refuses it from the header, before any decode (seconds and 400 MB)', async () => {
    // Cut short, the pixel data cannot be decoded: a decode would answer image_corrupt, as it
    // does for a small image cut the same way.
    expect((await refusal(processImage(pngTruncated(2_000, 2_000), 'post'))).code).toBe('image_corrupt');
    expect((await refusal(processImage(pngTruncated(20_000, 20_000), 'post'))).code).toBe('image_too_many_pixels');
  });

  it('accepts an image just under the pixel limit and refuses one just over it', async () => {
    const side = Math.floor(Math.sqrt(IMAGE_MAX_INPUT_PIXELS));
    const under = pngBomb(side, side);
    const over = pngBomb(side + 1, side + 1);
    const ok = await processImage(under, 'chat');
    expect(ok.main.width).toBe(1600);
    expect((await refusal(processImage(over, 'chat'))).code).toBe('image_too_many_pixels');
  });
});
