/**
 * The prebuilt geo files the server opens (server/geodata/land/land.bin.br,
 * server/geodata/places/places.bin.br) are what their build scripts make of the npm packages and
 * the committed GSHHG extract: rebuilt here and compared byte for byte, uncompressed (the
 * compression itself is brotli's). A failure means a file is stale: run the build script its
 * README names.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildLandFileBytes } from '../../geodata/lib/land-build.ts';
import { LAND_FILE } from '../../src/modules/geo/land-file.ts';
import { buildPlaceFileBytes } from '../../geodata/lib/places-data.ts';
import { PLACES_FILE } from '../../src/modules/geo/place-file.ts';
import { decompressPack } from '../../src/modules/geo/typed-pack.ts';

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const shipped = (file: URL) => sha256(decompressPack(readFileSync(file)));

describe('the prebuilt geo files', () => {
  it('hold the places as their build makes them', () => {
    expect(sha256(buildPlaceFileBytes().bytes)).toBe(shipped(PLACES_FILE));
  });

  it('hold the land as its build makes it', () => {
    expect(sha256(buildLandFileBytes().bytes)).toBe(shipped(LAND_FILE));
  });
});
