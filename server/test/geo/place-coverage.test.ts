/**
 * Every place the place search offers is land where the search puts it: a person who picks a
 * place in the location picker can post from it. Checked over all of them (135 000 GeoNames
 * places) against the prebuilt land the server opens.
 *
 * Most are inside the land polygons or within the coast tolerance of them; the GSHHG windows
 * take in the towns the 1 km OSM coast cuts off (the centre of Ajaccio), and the few places that
 * no coastline data set draws where they are (Malé, atoll villages, lake-shore towns behind a
 * generalised shore) are landmarks of the land file (land-build.ts).
 */
import { describe, expect, it } from 'vitest';
import { createLandChecker } from '../../src/modules/geo/land-check.ts';
import { readLandFile } from '../../src/modules/geo/land-file.ts';
import { readPlaceFile } from '../../src/modules/geo/place-file.ts';
import { COORDINATE_SCALE } from '../../src/modules/geo/places-search.ts';

/** GeoNames id → why the land check refuses that place. None today. */
const EXCEPTIONS = new Map<number, string>();

const land = readLandFile();
const places = readPlaceFile();

describe('every place of the place search is land', () => {
  it('accepts each place at its own coordinates, but for the listed exceptions', () => {
    const check = createLandChecker(land, { cacheSize: 0 });
    const refused: Array<{ id: number; name: string; latitude: number; longitude: number }> = [];
    for (let i = 0; i < places.ids.length; i++) {
      const latitude = places.latitudes[i] / COORDINATE_SCALE;
      const longitude = places.longitudes[i] / COORDINATE_SCALE;
      if (!check.isOnLand(latitude, longitude)) {
        refused.push({
          id: places.ids[i],
          name: places.nameText.slice(i === 0 ? 0 : places.nameEnds[i - 1], places.nameEnds[i]),
          latitude,
          longitude,
        });
      }
    }
    expect(places.ids.length).toBeGreaterThan(100_000);
    expect(refused.filter((p) => !EXCEPTIONS.has(p.id))).toEqual([]);
    expect([...EXCEPTIONS.keys()].filter((id) => !refused.some((p) => p.id === id))).toEqual([]);
  });

  it('owes that to the coastline data for all but one place in a thousand (the rest are landmarks)', () => {
    expect(land.stats.landmarks).toBeGreaterThan(0);
    expect(land.stats.landmarks).toBeLessThanOrEqual(places.ids.length / 1000);
  });
});
