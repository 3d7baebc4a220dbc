/**
 * Media processing cost: re-encoding uploads with sharp (post with thumbnail, avatar squares,
 * chat image) from a 12 MP phone-like JPEG and a 3 MP PNG, and the voice-message check of a
 * 60 s MediaRecorder-style WebM. Run: `npx node bench/media/media.bench.ts` (prints a table,
 * writes bench/results/media.json). Images are generated from a seeded pattern, so runs compare.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { checkVoiceMessage } from '../../server/src/modules/media/audio.ts';
import { processImage, type ImageKind } from '../../server/src/modules/media/images.ts';
import { recording } from '../../server/test/media/webm-writer.ts';

const RUNS = 5;
const RESULTS = join(dirname(fileURLToPath(import.meta.url)), '..', 'results', 'media.json');

/** Gradient plus seeded noise: compresses like a photo, unlike a flat colour. */
async function photoLike(width: number, height: number, format: 'jpeg' | 'png'): Promise<Buffer> {
  const raw = Buffer.alloc(width * height * 3);
  let seed = 42;
  for (let i = 0, p = 0; p < width * height; p++, i += 3) {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    const noise = (seed >> 16) & 31;
    const x = p % width;
    const y = (p / width) | 0;
    raw[i] = ((x / width) * 200 + noise) | 0;
    raw[i + 1] = ((y / height) * 200 + noise) | 0;
    raw[i + 2] = (((x + y) & 255) + noise) & 255;
  }
  const image = sharp(raw, { raw: { width, height, channels: 3 } });
  // Orientation 6, as most phone photos taken upright: the rotation is part of the cost.
  return format === 'jpeg'
    ? image.jpeg({ quality: 90 }).withMetadata({ orientation: 6 }).toBuffer()
    : image.png().toBuffer();
}

async function measure(run: () => Promise<unknown>): Promise<{ medianMs: number; minMs: number }> {
  await run(); // warm-up
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const start = performance.now();
    await run();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return { medianMs: Math.round(times[times.length >> 1]), minMs: Math.round(times[0]) };
}

const jpeg12 = await photoLike(4000, 3000, 'jpeg');
const png3 = await photoLike(2000, 1500, 'png');
const voice60 = recording(60);

const rows: Array<Record<string, string | number>> = [];
for (const [input, label] of [
  [jpeg12, '12 MP JPEG'],
  [png3, '3 MP PNG'],
] as const) {
  for (const kind of ['post', 'avatar', 'chat'] as ImageKind[]) {
    const sample = await processImage(input, kind);
    const { medianMs, minMs } = await measure(() => processImage(input, kind));
    rows.push({
      input: label,
      inputKB: Math.round(input.length / 1024),
      kind,
      output: `${sample.main.width}×${sample.main.height}${sample.thumb ? ` + ${sample.thumb.width}×${sample.thumb.height}` : ''}`,
      outputKB: Math.round((sample.main.body.length + (sample.thumb?.body.length ?? 0)) / 1024),
      medianMs,
      minMs,
    });
  }
}
const voice = await measure(() => checkVoiceMessage(voice60));
rows.push({
  input: '60 s live WebM',
  inputKB: Math.round(voice60.length / 1024),
  kind: 'voice',
  output: 'duration from clusters',
  outputKB: 0,
  ...voice,
});

console.table(rows);
mkdirSync(dirname(RESULTS), { recursive: true });
writeFileSync(
  RESULTS,
  `${JSON.stringify({ date: new Date().toISOString(), node: process.version, cpus: os.cpus().length, cpu: os.cpus()[0]?.model, sharp: sharp.versions.sharp, vips: sharp.versions.vips, runs: RUNS, results: rows }, null, 2)}\n`,
);
console.log(`written ${RESULTS}`);
