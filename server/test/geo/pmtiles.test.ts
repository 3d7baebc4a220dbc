/**
 * MAP_PMTILES: a local archive served at one URL with byte ranges, read back
 * over HTTP by the `pmtiles` package as the browser reads it; an archive URL handed to the web
 * app; a missing or broken archive stopping the server with a plain sentence. The archive is
 * built by the test (helpers/paris-basemap.ts). The database plays no part here: PGlite only.
 */
import { spawn } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { VectorTile } from '@mapbox/vector-tile';
import { PbfReader } from 'pbf';
import { bytesToHeader, FetchSource, PMTiles, TileType } from 'pmtiles';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { ConfigError, loadConfig, testConfig } from '../../src/config.ts';
import { type Database, openDatabase } from '../../src/db/client.ts';
import { PARIS_BOUNDS, parisTiles, writeParisArchive } from '../helpers/paris-basemap.ts';
import { suiteTestApp } from '../helpers/suite-app.ts';
import { listen } from '../helpers/ws.ts';

const ARCHIVE_PATH = '/api/geo/basemap.pmtiles';
const notFound = { error: { code: 'not_found', message: 'Ressource introuvable' } };

const dir = mkdtempSync(path.join(os.tmpdir(), 'moodmap-pmtiles-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const gzipArchive = writeParisArchive(dir, 'gzip');
const plainArchive = writeParisArchive(dir, 'none');
const size = readFileSync(gzipArchive).length;

/** The tile holding a point (Web Mercator, as MapLibre numbers them). */
function tileAt(z: number, lat: number, lon: number): [number, number, number] {
  const n = 2 ** z;
  const x = Math.floor(((lon + 180) / 360) * n);
  const y = Math.floor(((1 - Math.asinh(Math.tan((lat * Math.PI) / 180)) / Math.PI) / 2) * n);
  return [z, x, y];
}

describe('MAP_PMTILES as a local archive', () => {
  const t = suiteTestApp('pglite', { mapPmtiles: { kind: 'file', path: gzipArchive } });
  let base: string;
  beforeAll(async () => {
    base = await listen(t.app);
  });

  it('gives the web app the archive URL on the same origin', async () => {
    const res = await t.app.inject({ url: '/api/config' });
    expect(res.json()).toMatchObject({ mapPmtilesUrl: ARCHIVE_PATH, mapStyleUrl: null });
  });

  it('answers a range with 206 and the bytes asked for: the header decodes', async () => {
    const res = await fetch(base + ARCHIVE_PATH, { headers: { range: 'bytes=0-126' } });
    expect(res.status).toBe(206);
    expect(res.headers.get('accept-ranges')).toBe('bytes');
    expect(res.headers.get('content-range')).toBe(`bytes 0-126/${size}`);
    expect(res.headers.get('content-length')).toBe('127');
    expect(res.headers.get('content-type')).toBe('application/vnd.pmtiles');
    expect(res.headers.get('cache-control')).toBe('public, max-age=86400');
    // Strong: the pmtiles reader ignores weak ETags and could not see the archive change.
    expect(res.headers.get('etag')).toMatch(/^"[^"]+"$/);
    expect(res.headers.get('content-encoding')).toBeNull();
    const header = bytesToHeader(await res.arrayBuffer());
    expect(header).toMatchObject({
      specVersion: 3,
      tileType: TileType.Mvt,
      minZoom: 0,
      maxZoom: 14,
      numAddressedTiles: parisTiles().length,
    });
    expect([header.minLon, header.minLat, header.maxLon, header.maxLat]).toEqual(PARIS_BOUNDS);
  });

  it('is read whole by the pmtiles package over HTTP, every tile as written', async () => {
    const archive = new PMTiles(new FetchSource(base + ARCHIVE_PATH));
    expect((await archive.getHeader()).etag).toMatch(/^"/);
    expect(await archive.getMetadata()).toMatchObject({
      vector_layers: expect.arrayContaining([expect.objectContaining({ id: 'roads' })]),
    });
    for (const tile of parisTiles()) {
      const got = await archive.getZxy(tile.z, tile.x, tile.y);
      expect(got, `${tile.z}/${tile.x}/${tile.y}`).toBeDefined();
      expect(Buffer.from(got!.data).equals(Buffer.from(tile.data)), `${tile.z}/${tile.x}/${tile.y}`).toBe(true);
    }
    // A street tile in the centre holds the Protomaps layers with French names.
    const [z, x, y] = tileAt(14, 48.8588, 2.3475);
    const rivoli = new VectorTile(new PbfReader(new Uint8Array((await archive.getZxy(z, x, y))!.data)));
    expect(Object.keys(rivoli.layers)).toEqual(expect.arrayContaining(['earth', 'roads']));
    const roads = Array.from(
      { length: rivoli.layers.roads.length },
      (_, i) => rivoli.layers.roads.feature(i).properties,
    );
    expect(roads).toContainEqual(expect.objectContaining({ kind: 'major_road', name: 'Rue de Rivoli' }));
    // Outside the archive: no tile.
    expect(await archive.getZxy(14, 0, 0)).toBeUndefined();
  });

  it('honours If-Range with the current ETag only, and answers If-None-Match with 304', async () => {
    const first = await fetch(base + ARCHIVE_PATH, { headers: { range: 'bytes=0-9' } });
    const etag = first.headers.get('etag')!;
    const same = await fetch(base + ARCHIVE_PATH, { headers: { range: 'bytes=10-19', 'if-range': etag } });
    expect(same.status).toBe(206);
    expect((await same.arrayBuffer()).byteLength).toBe(10);
    const stale = await fetch(base + ARCHIVE_PATH, {
      headers: { range: 'bytes=10-19', 'if-range': '"an-older-archive"' },
    });
    expect(stale.status).toBe(200);
    expect((await stale.arrayBuffer()).byteLength).toBe(size);
    // A weak validator never satisfies If-Range (RFC 9110 §13.1.5).
    const weak = await fetch(base + ARCHIVE_PATH, { headers: { range: 'bytes=10-19', 'if-range': `W/${etag}` } });
    expect(weak.status).toBe(200);
    await weak.arrayBuffer();
    // inject: fetch adds `cache-control: no-cache` to a conditional request, which asks for the bytes.
    const cached = await t.app.inject({ url: ARCHIVE_PATH, headers: { 'if-none-match': etag } });
    expect(cached.statusCode).toBe(304);
    expect(cached.headers.etag).toBe(etag);
    expect(cached.rawPayload.length).toBe(0);
  });

  it('refuses a range past the end or malformed with 416, its size in Content-Range and the API error shape', async () => {
    for (const range of [`bytes=${size}-`, `bytes=${size + 100}-${size + 200}`, 'bytes=abc', 'bytes=20-10']) {
      const res = await fetch(base + ARCHIVE_PATH, { headers: { range } });
      expect(res.status, range).toBe(416);
      expect(res.headers.get('content-range')).toBe(`bytes */${size}`);
      expect(await res.json()).toEqual({ error: { code: 'bad_request', message: expect.any(String) } });
    }
  });

  it('answers the whole archive to a range of another unit, to several ranges (RFC 9110 lets a server ignore them) and to HEAD', async () => {
    for (const range of ['items=0-5', 'bytes=0-1,5-6']) {
      const res = await fetch(base + ARCHIVE_PATH, { headers: { range } });
      expect(res.status, range).toBe(200);
      expect((await res.arrayBuffer()).byteLength).toBe(size);
    }
    const head = await fetch(base + ARCHIVE_PATH, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe(String(size));
    expect(head.headers.get('accept-ranges')).toBe('bytes');
  });
});

describe('MAP_PMTILES with uncompressed tiles', () => {
  const t = suiteTestApp('pglite', { mapPmtiles: { kind: 'file', path: plainArchive } });

  it('is read back tile for tile', async () => {
    const archive = new PMTiles(new FetchSource((await listen(t.app)) + ARCHIVE_PATH));
    expect((await archive.getHeader()).tileCompression).toBe(1);
    for (const tile of parisTiles()) {
      const got = await archive.getZxy(tile.z, tile.x, tile.y);
      expect(Buffer.from(got!.data).equals(Buffer.from(tile.data))).toBe(true);
    }
  });
});

describe('without a local archive', () => {
  const none = suiteTestApp('pglite');
  const remote = suiteTestApp('pglite', {
    mapPmtiles: { kind: 'url', url: 'https://tiles.example.org/europe.pmtiles' },
  });

  it('answers 404 on the archive path and gives no archive URL', async () => {
    const res = await none.app.inject({ url: ARCHIVE_PATH, headers: { range: 'bytes=0-126' } });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual(notFound);
    expect((await none.app.inject({ url: '/api/config' })).json()).toMatchObject({ mapPmtilesUrl: null });
  });

  it('hands an archive URL to the web app, lets the page fetch it, and serves nothing itself', async () => {
    expect((await remote.app.inject({ url: '/api/config' })).json()).toMatchObject({
      mapPmtilesUrl: 'https://tiles.example.org/europe.pmtiles',
    });
    expect((await remote.app.inject({ url: ARCHIVE_PATH })).statusCode).toBe(404);
    const csp = String((await remote.app.inject({ url: '/api/health' })).headers['content-security-policy']);
    expect(csp).toMatch(/connect-src [^;]*https:\/\/tiles\.example\.org/);
  });

  it('reads MAP_PMTILES as a URL when it is one, as a path otherwise', () => {
    expect(loadConfig({ MAP_PMTILES: 'https://tiles.example.org/a.pmtiles' }).mapPmtiles).toEqual({
      kind: 'url',
      url: 'https://tiles.example.org/a.pmtiles',
    });
    expect(loadConfig({ MAP_PMTILES: 'data/france.pmtiles' }).mapPmtiles).toEqual({
      kind: 'file',
      path: path.resolve('data/france.pmtiles'),
    });
    expect(loadConfig({}).mapPmtiles).toBeUndefined();
  });
});

describe('a bad archive at startup', () => {
  /** The archive with some bytes changed. */
  function patched(name: string, changes: Record<number, number>): string {
    const bytes = readFileSync(gzipArchive);
    for (const [at, value] of Object.entries(changes)) bytes[Number(at)] = value;
    const file = path.join(dir, name);
    writeFileSync(file, bytes);
    return file;
  }

  let database: Database;
  beforeAll(async () => {
    database = await openDatabase({ dataDir: null });
  });
  afterAll(() => database.close());

  async function startError(file: string): Promise<ConfigError> {
    try {
      const built = await buildApp(testConfig({ mapPmtiles: { kind: 'file', path: file } }), { database });
      await built.close();
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      return error as ConfigError;
    }
    throw new Error(`${file} was accepted`);
  }

  it.each([
    ['a missing file', () => path.join(dir, 'absent.pmtiles'), 'fichier introuvable', 'file not found'],
    ['a directory', () => dir, "ce n'est pas un fichier", 'not a file'],
    [
      'a text file',
      () => {
        const file = path.join(dir, 'notes.pmtiles');
        writeFileSync(file, 'not an archive at all, only words '.repeat(10));
        return file;
      },
      "ce n'est pas une archive PMTiles v3 lisible",
      'not a readable PMTiles v3 archive',
    ],
    [
      'a truncated file',
      () => {
        const file = path.join(dir, 'short.pmtiles');
        writeFileSync(file, readFileSync(gzipArchive).subarray(0, 100));
        return file;
      },
      'fichier trop court',
      'file too short',
    ],
    ['an archive of spec version 2', () => patched('v2.pmtiles', { 7: 2 }), 'version 2', 'spec version 2'],
    [
      'a raster archive',
      () => patched('raster.pmtiles', { 99: TileType.Png }),
      'tuiles vectorielles',
      'vector (MVT) tiles',
    ],
  ])('refuses %s with a French and an English sentence', async (_name, make, french, english) => {
    const file = make();
    const error = await startError(file);
    expect(error.message).toContain(`MAP_PMTILES : `);
    expect(error.message).toContain(french);
    expect(error.message).toContain(english);
    expect(error.message).toContain(file);
  });

  it('stops `npm start` with exit code 1 and that sentence, no stack trace', async () => {
    const serverMain = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../src/main.ts');
    const missing = path.join(dir, 'missing.pmtiles');
    const dataDir = mkdtempSync(path.join(dir, 'data-'));
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      MAP_PMTILES: missing,
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      NODE_ENV: 'development',
    };
    delete env.DATABASE_URL;
    delete env.REDIS_URL;
    const child = spawn(process.execPath, [serverMain], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(code, output).toBe(1);
    expect(output).toContain(`MAP_PMTILES : fichier introuvable (${missing})`);
    expect(output).toContain(`MAP_PMTILES: file not found (${missing})`);
    expect(output).not.toMatch(/\n\s+at /);
  }, 60_000);

  it('starts with a valid archive copied anywhere', async () => {
    const elsewhere = path.join(mkdtempSync(path.join(dir, 'copy-')), '.hidden name.pmtiles');
    copyFileSync(gzipArchive, elsewhere);
    const app = await buildApp(testConfig({ mapPmtiles: { kind: 'file', path: elsewhere } }), { database });
    try {
      const res = await app.inject({ url: ARCHIVE_PATH, headers: { range: 'bytes=0-6' } });
      expect(res.statusCode).toBe(206);
      expect(res.body).toBe('PMTiles');
    } finally {
      await app.close();
    }
  });
});
