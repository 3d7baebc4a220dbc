/** `GET /api/geo/places?q&limit`, the place search of the top bar and the location picker. */
import { describe, expect, it } from 'vitest';
import { MESSAGES, placeSearchResponseSchema, type PlaceDto } from '@moodmap/core';
import { geoRoutesApp } from './fixtures.ts';

const app = geoRoutesApp();

async function search(query: Record<string, string>): Promise<PlaceDto[]> {
  const res = await app.inject({ method: 'GET', url: '/api/geo/places', query });
  expect(res.statusCode).toBe(200);
  return placeSearchResponseSchema.parse(res.json()).places;
}

describe('GET /api/geo/places', () => {
  it("finds Lyon first for 'lyon', with its region, French country name and a city zoom; publicly cacheable", async () => {
    const res = await app.inject({ method: 'GET', url: '/api/geo/places?q=lyon' });
    expect(res.headers['cache-control']).toBe('public, max-age=3600');
    const { places } = placeSearchResponseSchema.parse(res.json());
    expect(places).toHaveLength(5);
    expect(places[0]).toMatchObject({
      name: 'Lyon',
      region: 'Auvergne-Rhône-Alpes',
      country: 'FR',
      countryName: 'France',
      zoom: 11,
    });
    expect(places[0].latitude).toBeCloseTo(45.75, 1);
    expect(places[0].longitude).toBeCloseTo(4.85, 1);
    expect(places[0].population).toBeGreaterThan(400_000);
    // The others have a word starting with 'lyon' (Sainte-Foy-lès-Lyon, Lyons…), biggest first.
    for (const place of places.slice(1)) expect(place.name.toLowerCase()).toMatch(/(^|[^a-z])lyon/);
    const populations = places.slice(1).map((p) => p.population);
    expect(populations).toEqual([...populations].sort((a, b) => b - a));
  });

  it("finds both Saint-Denis for 'SAINT-DENIS', 'saint denis' or 'Saint Denis', exact names before bigger partial ones", async () => {
    for (const q of ['SAINT-DENIS', 'saint denis', 'Saint  Denis']) {
      const places = await search({ q, limit: '10' });
      const exact = places.filter((p) => p.name === 'Saint-Denis');
      expect(exact.map((p) => p.countryName)).toEqual(expect.arrayContaining(['La Réunion', 'France']));
      expect(places.slice(0, exact.length).every((p) => p.name === 'Saint-Denis')).toBe(true);
      expect(exact.find((p) => p.country === 'FR')).toMatchObject({ region: 'Île-de-France' });
    }
  });

  it("finds Besançon for 'besancon' and a word inside a name ('roses' → L'Haÿ-les-Roses)", async () => {
    const [besancon] = await search({ q: 'besancon' });
    expect(besancon).toMatchObject({ name: 'Besançon', country: 'FR', countryName: 'France' });
    const roses = await search({ q: "l'hay les ro" });
    expect(roses[0].name).toBe("L'Haÿ-les-Roses");
    expect((await search({ q: 'roses', limit: '10' })).map((p) => p.name)).toContain("L'Haÿ-les-Roses");
  });

  it.each([
    ['bruxelles', 'brussels', 'Bruxelles', 'BE'],
    ['londres', 'london', 'Londres', 'GB'],
    ['gênes', 'genoa', 'Gênes', 'IT'],
    ['bale', 'basel', 'Bâle', 'CH'],
    ['cologne', 'köln', 'Cologne', 'DE'],
  ])(
    "names a foreign city in French and finds it by either name: '%s' or '%s' → %s",
    async (frenchQuery, usualQuery, name, country) => {
      for (const q of [frenchQuery, usualQuery]) {
        const [first] = await search({ q });
        expect(first, q).toMatchObject({ name, country });
      }
    },
  );

  it("keeps GeoNames' own names in France (not the catalogue's 'Cherbourg' or 'Verdun-sur-Meuse')", async () => {
    expect((await search({ q: 'cherbourg octeville' }))[0]).toMatchObject({
      name: 'Cherbourg-Octeville',
      country: 'FR',
    });
    expect((await search({ q: 'verdun' })).filter((p) => p.country === 'FR').map((p) => p.name)).toContain('Verdun');
  });

  it('gives the zoom by size: a capital whole, a village close', async () => {
    const [paris] = await search({ q: 'Paris', limit: '1' });
    expect(paris).toMatchObject({ name: 'Paris', country: 'FR', zoom: 10 });
    const [ornans] = await search({ q: 'Ornans', limit: '1' });
    expect(ornans).toMatchObject({ name: 'Ornans', zoom: 13 });
  });

  it('answers an empty list for a name no place has, and at most `limit` places', async () => {
    expect(await search({ q: 'xqzwv' })).toEqual([]);
    expect(await search({ q: 'sa', limit: '10' })).toHaveLength(10);
    expect(await search({ q: 'sa', limit: '1' })).toHaveLength(1);
  });

  it.each([
    ['no q', {}, 'search_length'],
    ['q of spaces', { q: '   ' }, 'search_length'],
    ['q of one letter', { q: 'a' }, 'search_length'],
    ['q over 100 characters', { q: 'a'.repeat(101) }, 'search_length'],
    ['a NUL byte', { q: 'ly\u0000on' }, 'bad_request'],
    ['limit 0', { q: 'lyon', limit: '0' }, 'bad_request'],
    ['limit 11', { q: 'lyon', limit: '11' }, 'bad_request'],
    ['limit not a number', { q: 'lyon', limit: 'five' }, 'bad_request'],
    ['limit a fraction', { q: 'lyon', limit: '2.5' }, 'bad_request'],
  ] as const)('refuses %s with 400 in the API shape', async (_name, query, code) => {
    const res = await app.inject({ method: 'GET', url: '/api/geo/places', query: { ...query } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: { code, message: MESSAGES[code] } });
  });
});
