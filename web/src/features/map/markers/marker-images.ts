/**
 * The markers' pictures, drawn on demand into the map's image atlas: MapLibre asks for
 * an image it lacks (its missing-image resolver) and gets it drawn on a canvas from its id alone:
 * - `mmp:<theme>:<mood>:<initials>:<photo URL>` a single marker: the author's photo cropped to a
 *   circle in the mood ring, with the mood emoji as a badge; the initials on the mood's tint
 *   while the photo loads, or for good when there is none or it fails (as AuthorPhoto does);
 * - `mmg:<theme>:<count>` a 100 m cluster (#0CC0DF, its count);
 * - `mma:<theme>:<count>` a zoomed-out aggregate (the cluster colour with a halo).
 * Photos are read once per URL and kept, so a theme or style change redraws without a request.
 */
import { MAP, MOOD_INFO, type Mood, isMood } from '@moodmap/core';
import { initialsOf } from '../../posts/for-map.ts';

export type Theme = 'light' | 'dark';

/** CSS pixels of a single marker (the photo ring), as the DOM markers had. */
export const POST_MARKER_SIZE = 46;
/** Room around a single marker for its shadow and badge. */
const POST_PAD = 6;
const INK_900 = '#141b2b';

export function postImageId(theme: Theme, mood: Mood, nickname: string, photoUrl: string | null): string {
  return `mmp:${theme}:${mood}:${encodeURIComponent(initialsOf(nickname))}:${photoUrl ?? ''}`;
}

/** The part of a post's image id that does not depend on the theme (a feature property). */
export function postIconKey(mood: Mood, nickname: string, photoUrl: string | null): string {
  return postImageId('light', mood, nickname, photoUrl).slice('mmp:light:'.length);
}

export function clusterSize(count: number): number {
  return Math.round(Math.min(64, 40 + Math.log10(Math.max(1, count)) * 10));
}

/** Compact counts: 999, 1,2k, 15k. */
export function shortCount(count: number): string {
  if (count < 1000) return String(count);
  if (count < 10_000) return `${(Math.floor(count / 100) / 10).toLocaleString('fr-FR')}k`;
  return `${Math.floor(count / 1000)}k`;
}

export type ParsedImage =
  | { kind: 'post'; theme: Theme; mood: Mood; initials: string; photoUrl: string | null }
  | { kind: 'group' | 'aggregate'; theme: Theme; count: number };

export function parseImageId(id: string): ParsedImage | null {
  const [prefix, theme, a, b, ...rest] = id.split(':');
  if (theme !== 'light' && theme !== 'dark') return null;
  if (prefix === 'mmp' && a && isMood(a) && b !== undefined) {
    const url = rest.join(':');
    return { kind: 'post', theme, mood: a, initials: decodeURIComponent(b), photoUrl: url || null };
  }
  const count = Number(a);
  if ((prefix === 'mmg' || prefix === 'mma') && Number.isInteger(count) && count > 0)
    return { kind: prefix === 'mmg' ? 'group' : 'aggregate', theme, count };
  return null;
}

/** The drawing surface MapLibre's addImage takes. */
export interface Drawn {
  width: number;
  height: number;
  data: Uint8ClampedArray;
}

export type Context = Pick<
  CanvasRenderingContext2D,
  | 'beginPath'
  | 'arc'
  | 'fill'
  | 'stroke'
  | 'save'
  | 'restore'
  | 'clip'
  | 'drawImage'
  | 'fillText'
  | 'createLinearGradient'
  | 'getImageData'
  | 'scale'
> & {
  fillStyle: unknown;
  strokeStyle: unknown;
  lineWidth: number;
  font: string;
  textAlign: string;
  textBaseline: string;
  shadowColor: string;
  shadowBlur: number;
  shadowOffsetY: number;
};

export type MakeCanvas = (width: number, height: number) => Context | null;

const defaultCanvas: MakeCanvas = (width, height) => {
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  return canvas.getContext('2d', { willReadFrequently: true });
};

function circle(ctx: Context, x: number, y: number, r: number): void {
  ctx.beginPath();
  ctx.arc(x, y, r, 0, Math.PI * 2);
}

type PostImage = Extract<ParsedImage, { kind: 'post' }>;
type GroupImage = Extract<ParsedImage, { kind: 'group' | 'aggregate' }>;

/** Draws image `parsed` at `ratio` device pixels per CSS pixel; `photo` is the loaded author photo, if any. */
export function drawMarkerImage(
  parsed: ParsedImage,
  ratio: number,
  photo: CanvasImageSource | null,
  makeCanvas: MakeCanvas = defaultCanvas,
): Drawn | null {
  return parsed.kind === 'post' ? drawPost(parsed, ratio, photo, makeCanvas) : drawGroup(parsed, ratio, makeCanvas);
}

/** A single post: the photo (or the initials) in the mood ring, the mood's emoji as a badge. */
function drawPost(
  parsed: PostImage,
  ratio: number,
  photo: CanvasImageSource | null,
  makeCanvas: MakeCanvas,
): Drawn | null {
  const css = POST_MARKER_SIZE + POST_PAD * 2;
  const px = Math.ceil(css * ratio);
  const ctx = makeCanvas(px, px);
  if (!ctx) return null;
  ctx.scale(ratio, ratio);
  const mood = MOOD_INFO[parsed.mood];
  const c = css / 2;
  const r = POST_MARKER_SIZE / 2;
  // The mood ring with its shadow, then the surface inside it.
  ctx.save();
  ctx.shadowColor = 'rgba(20, 27, 43, 0.45)';
  ctx.shadowBlur = 8;
  ctx.shadowOffsetY = 2;
  circle(ctx, c, c, r);
  ctx.fillStyle = mood.color;
  ctx.fill();
  ctx.restore();
  circle(ctx, c, c, r - 3);
  ctx.fillStyle = parsed.theme === 'dark' ? INK_900 : '#ffffff';
  ctx.fill();
  const inner = r - 4;
  ctx.save();
  circle(ctx, c, c, inner);
  ctx.clip();
  if (photo) {
    ctx.drawImage(photo, c - inner, c - inner, inner * 2, inner * 2);
  } else {
    const tint = ctx.createLinearGradient(c - inner, c - inner, c + inner, c + inner);
    tint.addColorStop(0, '#ffffff');
    tint.addColorStop(1, mood.color);
    ctx.fillStyle = tint;
    circle(ctx, c, c, inner);
    ctx.fill();
    ctx.fillStyle = INK_900;
    ctx.font = `700 ${Math.round(inner * 2 * 0.36)}px system-ui, sans-serif`;
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    ctx.fillText(parsed.initials, c, c + 1);
  }
  ctx.restore();
  // The mood badge, bottom right, ringed in the surface colour.
  const bx = c + r - 6;
  const by = c + r - 6;
  circle(ctx, bx, by, 11);
  ctx.fillStyle = parsed.theme === 'dark' ? INK_900 : '#ffffff';
  ctx.fill();
  circle(ctx, bx, by, 9);
  ctx.fillStyle = mood.color;
  ctx.fill();
  ctx.font = '11px "Apple Color Emoji", "Segoe UI Emoji", "Noto Color Emoji", sans-serif';
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  ctx.fillStyle = INK_900;
  ctx.fillText(mood.emoji, bx, by + 1);
  return read(ctx, px);
}

/** A 100 m cluster or a zoomed-out aggregate: the count in a disc with a halo. */
function drawGroup(parsed: GroupImage, ratio: number, makeCanvas: MakeCanvas): Drawn | null {
  const size = clusterSize(parsed.count) + (parsed.kind === 'aggregate' ? 6 : 0);
  const halo = parsed.kind === 'aggregate' ? 7 : 6;
  const css = size + halo * 2 + 4;
  const px = Math.ceil(css * ratio);
  const ctx = makeCanvas(px, px);
  if (!ctx) return null;
  ctx.scale(ratio, ratio);
  const c = css / 2;
  circle(ctx, c, c, size / 2 + halo);
  ctx.fillStyle = parsed.kind === 'aggregate' ? `${MAP.clusterColor}38` : `${MAP.clusterColor}55`;
  ctx.fill();
  ctx.save();
  ctx.shadowColor = 'rgba(20, 27, 43, 0.5)';
  ctx.shadowBlur = 10;
  ctx.shadowOffsetY = 3;
  circle(ctx, c, c, size / 2 + (parsed.kind === 'aggregate' ? 2.5 : 3));
  ctx.fillStyle = '#ffffff';
  ctx.fill();
  ctx.restore();
  circle(ctx, c, c, size / 2);
  ctx.fillStyle = MAP.clusterColor;
  ctx.fill();
  const label = parsed.kind === 'aggregate' ? shortCount(parsed.count) : String(parsed.count);
  ctx.fillStyle = '#ffffff';
  ctx.font = `800 ${Math.round(size * (parsed.kind === 'aggregate' ? 0.34 : 0.36))}px system-ui, sans-serif`;
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  ctx.fillText(label, c, c + 1);
  return read(ctx, px);
}

function read(ctx: Context, px: number): Drawn {
  const image = ctx.getImageData(0, 0, px, px);
  return { width: px, height: px, data: image.data };
}

/** Author photos by URL: the loaded image, or null once it failed (drawn with initials for good). */
const photos = new Map<string, Promise<HTMLImageElement | null>>();

export function loadPhoto(url: string): Promise<HTMLImageElement | null> {
  let pending = photos.get(url);
  if (!pending) {
    pending = new Promise((resolve) => {
      const img = new Image();
      // Drawn into a canvas that is read back: a photo on another origin must allow it.
      img.crossOrigin = 'anonymous';
      img.decoding = 'async';
      img.onload = () => resolve(img);
      img.onerror = () => resolve(null);
      img.src = url;
    });
    photos.set(url, pending);
  }
  return pending;
}

/** Test hook. */
export function forgetPhotosForTests(): void {
  photos.clear();
}

/**
 * Answers MapLibre's missing-image resolver for our ids: the image is added at once (initials for a
 * post whose photo is not loaded yet), then replaced by the photo when it arrives.
 */
export interface AtlasMap {
  hasImage(id: string): boolean;
  addImage(id: string, image: Drawn, options?: { pixelRatio?: number }): void;
  updateImage(id: string, image: Drawn): void;
  triggerRepaint(): void;
}

export function provideImage(
  map: AtlasMap,
  id: string,
  ratio: number,
  makeCanvas: MakeCanvas = defaultCanvas,
  load: typeof loadPhoto = loadPhoto,
): boolean {
  const parsed = parseImageId(id);
  if (!parsed) return false;
  const first = drawMarkerImage(parsed, ratio, null, makeCanvas);
  if (!first) return false;
  if (!map.hasImage(id)) map.addImage(id, first, { pixelRatio: ratio });
  if (parsed.kind === 'post' && parsed.photoUrl) {
    void load(parsed.photoUrl).then((photo) => {
      if (!photo || !map.hasImage(id)) return;
      let drawn: Drawn | null = null;
      try {
        drawn = drawMarkerImage(parsed, ratio, photo, makeCanvas);
      } catch {
        // A photo the canvas may not read back (no CORS): the initials stay.
      }
      if (drawn) {
        map.updateImage(id, drawn);
        map.triggerRepaint();
      }
    });
  }
  return true;
}
