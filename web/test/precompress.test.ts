import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { precompressDir } from '../precompress.ts';

let dir = '';
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('build step: pre-compressed siblings', () => {
  it('writes .br and .gz for text files above 1 kB, identical once decompressed, and leaves the rest alone', () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'moodmap-dist-'));
    mkdirSync(path.join(dir, 'assets'));
    const js = 'const carte = "MoodMap";\n'.repeat(200);
    writeFileSync(path.join(dir, 'assets', 'index-abc.js'), js);
    writeFileSync(path.join(dir, 'assets', 'tiny-abc.js'), 'export {}');
    writeFileSync(path.join(dir, 'assets', 'photo-abc.png'), Buffer.alloc(4096, 7));

    const done = precompressDir(dir).map((f) => path.relative(dir, f));
    expect(done).toEqual([path.join('assets', 'index-abc.js')]);
    const br = readFileSync(path.join(dir, 'assets', 'index-abc.js.br'));
    const gz = readFileSync(path.join(dir, 'assets', 'index-abc.js.gz'));
    expect(brotliDecompressSync(br).toString()).toBe(js);
    expect(gunzipSync(gz).toString()).toBe(js);
    expect(br.length).toBeLessThan(js.length / 10);
    expect(existsSync(path.join(dir, 'assets', 'tiny-abc.js.br'))).toBe(false);
    expect(existsSync(path.join(dir, 'assets', 'photo-abc.png.gz'))).toBe(false);
  });
});
