/**
 * First-load JS of the web build against MapLibre's own bundle (the goal: first-load JS gzip ÷
 * MapLibre's gzip ≤ 1.15).
 *
 * "First load" is what a visit to / fetches before the map can draw: the entry chunk and its
 * static imports (the <script>/<modulepreload> tags of index.html), plus the map screen's lazy
 * chunks (FIRST_LOAD_DYNAMIC_ENTRIES) with their own static imports, and MapLibre's worker. Chunks that a later interaction
 * loads (other screens, dialogs) are not counted. MapLibre's reference is its main bundle plus
 * its worker from node_modules. Both sides are gzipped at level 9 here, so the ratio compares
 * like with like whatever the server's precompressed siblings hold.
 *
 * Read from Vite's build manifest (`build.manifest: true`), so `npm run build -w web` first.
 * Run: `npx node web/scripts/first-load-size.ts [distDir]`; or import `measureFirstLoad`.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  assets?: string[];
}
type Manifest = Record<string, ManifestChunk>;

/**
 * The lazily loaded modules that the map screen loads at once: the map (Shell renders it). Core's
 * zod schemas are not: the config and viewport answers the map waits for are read without zod
 * (lib/config.ts, features/posts/viewport-answer.ts), and the schemas load once the map is ready
 * (features/map/MapView.tsx) or on first use. Listed here so the build's figure counts what the
 * browser bench sees.
 */
export const FIRST_LOAD_DYNAMIC_ENTRIES = ['src/features/map/MapView.tsx'];

export interface SizedFile {
  file: string;
  bytes: number;
  gzip: number;
}

export interface FirstLoadReport {
  files: SizedFile[];
  firstLoadGzip: number;
  maplibre: SizedFile[];
  maplibreGzip: number;
  /** firstLoadGzip ÷ maplibreGzip. */
  ratio: number;
}

const webRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function sized(file: string, label: string): SizedFile {
  const body = readFileSync(file);
  return { file: label, bytes: body.length, gzip: gzipSync(body, { level: 9 }).length };
}

/** The JS files (relative to dist) of the first load, entry first. */
export function firstLoadFiles(manifest: Manifest): string[] {
  const files = new Set<string>();
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    seen.add(key);
    const chunk = manifest[key];
    if (!chunk) throw new Error(`manifest has no ${key}`);
    files.add(chunk.file);
    for (const asset of chunk.assets ?? []) if (/\.m?js$/.test(asset)) files.add(asset); // MapLibre's worker
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  const entries = Object.entries(manifest).filter(([, chunk]) => chunk.isEntry);
  if (entries.length === 0) throw new Error('manifest has no entry');
  for (const [key] of entries) visit(key);
  // By path suffix too: a checkout whose core is reached through a symlink names it by its real path.
  for (const src of FIRST_LOAD_DYNAMIC_ENTRIES)
    visit(
      manifest[src] ? src : (Object.keys(manifest).find((key) => key.endsWith(src.replace(/^(\.\.\/)+/, '/'))) ?? src),
    );
  return [...files];
}

export function measureFirstLoad(distDir = path.join(webRoot, 'dist')): FirstLoadReport {
  const manifest = JSON.parse(readFileSync(path.join(distDir, '.vite', 'manifest.json'), 'utf8')) as Manifest;
  const files = firstLoadFiles(manifest).map((file) => sized(path.join(distDir, file), file));
  const require = createRequire(path.join(webRoot, 'package.json'));
  const dist = path.dirname(require.resolve('maplibre-gl/dist/maplibre-gl.mjs'));
  const maplibre = ['maplibre-gl.mjs', 'maplibre-gl-worker.mjs'].map((name) =>
    sized(path.join(dist, name), `maplibre-gl/dist/${name}`),
  );
  const firstLoadGzip = files.reduce((sum, f) => sum + f.gzip, 0);
  const maplibreGzip = maplibre.reduce((sum, f) => sum + f.gzip, 0);
  return { files, firstLoadGzip, maplibre, maplibreGzip, ratio: firstLoadGzip / maplibreGzip };
}

function kB(bytes: number): string {
  return `${(bytes / 1000).toFixed(1)} kB`;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const report = measureFirstLoad(process.argv[2] ? path.resolve(process.argv[2]) : undefined);
  for (const f of [...report.files].sort((a, b) => b.gzip - a.gzip))
    console.log(`${kB(f.gzip).padStart(10)}  ${f.file}`);
  console.log(`first-load JS gzip   ${kB(report.firstLoadGzip)}`);
  console.log(
    `MapLibre's own gzip  ${kB(report.maplibreGzip)} (${report.maplibre.map((f) => `${f.file} ${kB(f.gzip)}`).join(' + ')})`,
  );
  console.log(`ratio                ${report.ratio.toFixed(3)}`);
}
