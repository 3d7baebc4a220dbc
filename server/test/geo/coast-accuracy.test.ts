/**
 * Coast precision: a post on a beach or a quay is accepted, a point 1 km offshore is
 * refused — by the land check, by GET /api/geo/land and by the create API — and the basemap's
 * land from zoom 6 is the land the check decides with.
 */
import { VectorTile } from '@mapbox/vector-tile';
import { PbfReader } from 'pbf';
import { describe, expect, it } from 'vitest';
import { GEO_TILE_MAX_ZOOM } from '@moodmap/core';
import { call, signedInUser } from '../helpers/auth.ts';
import { engines } from '../helpers/databases.ts';
import { suiteAuthApp } from '../helpers/suite-app.ts';
import { PRECISE_LAND_MIN_ZOOM } from '../../geodata/lib/land-precise.ts';
import { COASTAL_PLACES } from './coastal-places.ts';
import { geoRoutesApp } from './fixtures.ts';
import { realGeo } from '../helpers/geo-fixture.ts';

const checker = realGeo().land;
const app = geoRoutesApp();

const named = (key: 'land' | 'offshore1km' | 'offshore5km') =>
  COASTAL_PLACES.map((place) => [place.name, ...place[key]] as [string, number, number]);

describe('coast accuracy: the land check', () => {
  it('holds at least 25 places', () => {
    expect(COASTAL_PLACES.length).toBeGreaterThanOrEqual(25);
  });

  it.each(named('land'))('%s, on its seafront, is land', (_name, lat, lon) => {
    expect(checker.isOnLand(lat, lon)).toBe(true);
  });

  it.each(named('offshore1km'))('1 km off %s is sea', (_name, lat, lon) => {
    expect(checker.isOnLand(lat, lon)).toBe(false);
  });

  it.each(named('offshore5km'))('5 km off %s is sea', (_name, lat, lon) => {
    expect(checker.isOnLand(lat, lon)).toBe(false);
  });

  it.each([
    ['10 km off Nice', 43.6047, 7.264],
    ['15 km off Saint-Denis de La Réunion', -20.74, 55.448],
    ['10 km off Bondi', -33.9, 151.38],
  ])('%s is sea', (_name, lat, lon) => {
    expect(checker.isOnLand(lat, lon)).toBe(false);
  });

  it.each([
    ['Lyon', 45.764, 4.8357],
    ['Madrid', 40.4168, -3.7038],
    ['Saint-Denis de La Réunion, Cathedral', -20.8823, 55.4504],
    ['Cilaos, La Réunion', -21.1347, 55.4714],
  ])('%s, inland, is land', (_name, lat, lon) => {
    expect(checker.isOnLand(lat, lon)).toBe(true);
  });
});

describe('coast accuracy: GET /api/geo/land', () => {
  it('answers onLand for each seafront and not for the point 1 km off it', async () => {
    for (const place of COASTAL_PLACES.slice(0, 8)) {
      const [lat, lon] = place.land;
      const [seaLat, seaLon] = place.offshore1km;
      const onShore = await app.inject({ method: 'GET', url: `/api/geo/land?lat=${lat}&lon=${lon}` });
      const offShore = await app.inject({ method: 'GET', url: `/api/geo/land?lat=${seaLat}&lon=${seaLon}` });
      expect([place.name, onShore.statusCode, onShore.json()]).toEqual([place.name, 200, { onLand: true }]);
      expect([place.name, offShore.statusCode, offShore.json()]).toEqual([place.name, 200, { onLand: false }]);
    }
  });
});

describe.each(engines)('coast accuracy: POST /api/posts on %s', (engine) => {
  const t = suiteAuthApp(engine, {}, { geo: realGeo() });
  const place = (prefix: string) => {
    const found = COASTAL_PLACES.find((p) => p.name.startsWith(prefix));
    if (!found) throw new Error(prefix);
    return found;
  };

  it.each(['Nice', 'Biarritz', 'Saint-Denis de La Réunion'])(
    'publishes on the seafront of %s and refuses 1 km off it',
    async (prefix) => {
      const { land, offshore1km } = place(prefix);
      const { token } = await signedInUser(t);
      const post = (latitude: number, longitude: number) =>
        call(t, {
          method: 'POST',
          url: '/api/posts',
          token,
          payload: { category: 'happy', content: 'Au bord de l’eau', latitude, longitude },
        });
      const refused = await post(...offshore1km);
      expect(refused.statusCode).toBe(400);
      expect(refused.json().error.message).toBe('Publications autorisées uniquement sur terre (îles comprises)');
      const accepted = await post(...land);
      expect(accepted.statusCode).toBe(201);
      expect(accepted.json().post).toMatchObject({ latitude: land[0], longitude: land[1] });
    },
  );
});

/** Whether a point falls inside a polygon of the tile's land layer (even-odd over every ring). */
function tileLandContains(tile: VectorTile, z: number, lat: number, lon: number): boolean {
  const n = 2 ** z;
  const layer = tile.layers.land;
  if (!layer) return false;
  const worldX = ((lon + 180) / 360) * n;
  const worldY = ((1 - Math.asinh(Math.tan((lat * Math.PI) / 180)) / Math.PI) / 2) * n;
  const px = (worldX - Math.floor(worldX)) * layer.extent;
  const py = (worldY - Math.floor(worldY)) * layer.extent;
  let inside = false;
  for (let i = 0; i < layer.length; i++) {
    for (const ring of layer.feature(i).loadGeometry()) {
      for (let a = 0, b = ring.length - 1; a < ring.length; b = a++) {
        const { x: x1, y: y1 } = ring[a];
        const { x: x2, y: y2 } = ring[b];
        if (y1 > py !== y2 > py && px < x1 + ((py - y1) * (x2 - x1)) / (y2 - y1)) inside = !inside;
      }
    }
  }
  return inside;
}

function tileUrl(z: number, lat: number, lon: number): string {
  const n = 2 ** z;
  const x = Math.floor(((lon + 180) / 360) * n);
  const y = Math.floor(((1 - Math.asinh(Math.tan((lat * Math.PI) / 180)) / Math.PI) / 2) * n);
  return `/api/geo/tiles/${z}/${x}/${y}.pbf`;
}

describe('coast accuracy: the basemap draws the land the check decides with', () => {
  const strict = (lat: number, lon: number) => checker.isOnLand(lat, lon);

  it.each(COASTAL_PLACES.slice(0, 10).map((p) => [p.name, p]))(
    'at the deepest tile zoom around %s',
    async (_name, place) => {
      const z = GEO_TILE_MAX_ZOOM;
      expect(z).toBeGreaterThanOrEqual(PRECISE_LAND_MIN_ZOOM);
      for (const [lat, lon] of [place.offshore1km, place.offshore5km]) {
        const res = await app.inject({ method: 'GET', url: tileUrl(z, lat, lon) });
        const drawnLand =
          res.statusCode === 200 && tileLandContains(new VectorTile(new PbfReader(res.rawPayload)), z, lat, lon);
        expect(drawnLand).toBe(false);
        expect(strict(lat, lon)).toBe(false);
      }
    },
  );

  it('draws a seafront that the polygon holds as land at the deepest tile zoom (Nice, Marseille, Bondi)', async () => {
    for (const name of ['Nice, Promenade des Anglais beach', 'Marseille, Vieux-Port quay', 'Sydney, Bondi Beach']) {
      const place = COASTAL_PLACES.find((p) => p.name === name);
      if (!place) throw new Error(name);
      const [lat, lon] = place.land;
      const res = await app.inject({ method: 'GET', url: tileUrl(GEO_TILE_MAX_ZOOM, lat, lon) });
      expect(res.statusCode).toBe(200);
      expect([
        name,
        tileLandContains(new VectorTile(new PbfReader(res.rawPayload)), GEO_TILE_MAX_ZOOM, lat, lon),
      ]).toEqual([name, true]);
    }
  });
});
