/**
 * Uploaded images are never stored as sent: the type comes from the file's magic number
 * (JPEG, PNG, GIF or WebP; the declared type and the name are ignored), then sharp decodes
 * and re-encodes it to WebP. Re-encoding drops every byte that is not pixels — EXIF with GPS
 * position (this is a location app), XMP, IPTC, comments, ICC profiles (converted to sRGB),
 * polyglot payloads — after turning the pixels upright by the EXIF orientation.
 *
 * Animated GIF and WebP keep their first frame only (a still, like the thumbnails).
 * Pixel floods (a small file that declares a huge canvas) are refused from the header before
 * any decoding; at most IMAGE_CONCURRENCY images are decoded at once, so memory stays bounded.
 */
import { fileTypeFromBuffer } from 'file-type';
import sharp, { type Metadata, type SharpOptions } from 'sharp';
import { appError } from '../../errors.ts';

export type ImageKind = 'post' | 'avatar' | 'chat';

export interface ProcessedImage {
  body: Buffer;
  contentType: 'image/webp';
  ext: 'webp';
  width: number;
  height: number;
}

export interface ProcessImageResult {
  main: ProcessedImage;
  /** Posts: 256 px wide for markers and lists. Avatars: the 128 px square. Chat: none. */
  thumb?: ProcessedImage;
  /** What the magic number said the upload was. */
  source: { mime: AcceptedMime; width: number; height: number; animated: boolean };
}

/** Pixel floods: larger canvases are refused from the header, before any decoding. */
export const IMAGE_MAX_INPUT_PIXELS = 40_000_000;
/** Images decoded at once in this process; each may hold up to ~160 MB of pixels. */
export const IMAGE_CONCURRENCY = 2;

const ACCEPTED = ['image/jpeg', 'image/png', 'image/gif', 'image/webp'] as const;
type AcceptedMime = (typeof ACCEPTED)[number];

type Resize = { mode: 'inside'; width: number; height: number } | { mode: 'square'; size: number };
interface Rendition {
  resize: Resize;
  quality: number;
}

/** Dimension caps: post images, square avatars, chat images. */
export const IMAGE_RENDITIONS: Record<ImageKind, { main: Rendition; thumb?: Rendition }> = {
  post: {
    main: { resize: { mode: 'inside', width: 2048, height: 2048 }, quality: 80 },
    // 256 px wide; very tall images stop at 768 px high.
    thumb: { resize: { mode: 'inside', width: 256, height: 768 }, quality: 70 },
  },
  chat: { main: { resize: { mode: 'inside', width: 1600, height: 1600 }, quality: 80 } },
  avatar: {
    main: { resize: { mode: 'square', size: 512 }, quality: 82 },
    thumb: { resize: { mode: 'square', size: 128 }, quality: 75 },
  },
};

/** Decodes what the magic number says; the declared content type is never consulted. */
export async function detectImageType(buffer: Buffer): Promise<AcceptedMime> {
  const type = await fileTypeFromBuffer(buffer);
  // APNG is a PNG whose first frame any PNG decoder reads.
  const mime = type?.mime === 'image/apng' ? 'image/png' : type?.mime;
  if (!mime || !(ACCEPTED as readonly string[]).includes(mime)) throw appError(400, 'image_type_invalid');
  return mime as AcceptedMime;
}

function createLimiter(max: number) {
  let active = 0;
  const waiting: Array<() => void> = [];
  return async <T>(task: () => Promise<T>): Promise<T> => {
    if (active >= max) await new Promise<void>((resolve) => waiting.push(resolve));
    else active++;
    try {
      return await task();
    } finally {
      // Hand the slot to the next waiter directly, so no newcomer can jump in between.
      const next = waiting.shift();
      if (next) next();
      else active--;
    }
  };
}
const limit = createLimiter(IMAGE_CONCURRENCY);

const decodeOptions = {
  limitInputPixels: IMAGE_MAX_INPUT_PIXELS,
  // Phones write JPEGs with minor warnings; broken or truncated data still fails.
  failOn: 'error',
  autoOrient: true,
  // First frame of an animated GIF/WebP.
  pages: 1,
  sequentialRead: true,
} as const satisfies SharpOptions;

async function render(input: Buffer, rendition: Rendition, width: number, height: number): Promise<ProcessedImage> {
  let pipeline = sharp(input, decodeOptions).timeout({ seconds: 30 });
  const r = rendition.resize;
  if (r.mode === 'inside') {
    pipeline = pipeline.resize({ width: r.width, height: r.height, fit: 'inside', withoutEnlargement: true });
  } else {
    // Square crop from the centre; never enlarged (a 100 px photo stays 100 px).
    const side = Math.min(r.size, width, height);
    pipeline = pipeline.resize({ width: side, height: side, fit: 'cover', position: 'centre' });
  }
  // No keepMetadata()/withMetadata(): sharp writes no EXIF, XMP, IPTC or ICC at all.
  const { data, info } = await pipeline
    .webp({ quality: rendition.quality, effort: 4 })
    .toBuffer({ resolveWithObject: true });
  return { body: data, contentType: 'image/webp', ext: 'webp', width: info.width, height: info.height };
}

function isPixelLimit(error: unknown): boolean {
  return error instanceof Error && /pixel limit/i.test(error.message);
}

export async function processImage(buffer: Buffer, kind: ImageKind): Promise<ProcessImageResult> {
  const mime = await detectImageType(buffer);
  const renditions = IMAGE_RENDITIONS[kind];
  return limit(async () => {
    let meta: Metadata;
    try {
      meta = await sharp(buffer, decodeOptions).metadata();
    } catch (error) {
      if (isPixelLimit(error)) throw appError(400, 'image_too_many_pixels', { max: IMAGE_MAX_INPUT_PIXELS / 1e6 });
      throw appError(400, 'image_corrupt');
    }
    // Upright dimensions: EXIF orientations 5-8 swap width and height.
    const width = meta.autoOrient?.width ?? meta.width ?? 0;
    const height = meta.autoOrient?.height ?? meta.height ?? 0;
    if (width * height > IMAGE_MAX_INPUT_PIXELS)
      throw appError(400, 'image_too_many_pixels', { max: IMAGE_MAX_INPUT_PIXELS / 1e6 });
    if (width < 1 || height < 1) throw appError(400, 'image_corrupt');
    try {
      const main = await render(buffer, renditions.main, width, height);
      // The thumbnail comes from the main rendition: decoding a 2048 px WebP is cheaper than the original.
      const thumb = renditions.thumb ? await render(main.body, renditions.thumb, main.width, main.height) : undefined;
      return { main, thumb, source: { mime, width, height, animated: (meta.pages ?? 1) > 1 } };
    } catch (error) {
      if (isPixelLimit(error)) throw appError(400, 'image_too_many_pixels', { max: IMAGE_MAX_INPUT_PIXELS / 1e6 });
      throw appError(400, 'image_corrupt');
    }
  });
}
