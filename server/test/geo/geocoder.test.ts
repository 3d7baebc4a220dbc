import { describe, expect, it } from 'vitest';
import {
  createLandDecision,
  createMapboxGeocoder,
  verdictOf,
  withVerdictCache,
  type Geocoder,
} from '../../src/adapters/geocoder/index.ts';

const answer = (placeName: string | null, status = 200): typeof fetch =>
  (async () =>
    new Response(JSON.stringify({ features: placeName === null ? [] : [{ place_name: placeName }] }), {
      status,
    })) as typeof fetch;

describe('optional reverse geocoder', () => {
  it('reads features[0].place_name and asks for country to address types, limit 1', async () => {
    let asked = '';
    const geocoder = createMapboxGeocoder('tok', (async (url: URL) => {
      asked = String(url);
      return new Response(JSON.stringify({ features: [{ place_name: 'Saint-Denis, La Réunion, France' }] }));
    }) as unknown as typeof fetch);
    expect(await geocoder.reverse(-20.8789, 55.4481)).toBe('Saint-Denis, La Réunion, France');
    expect(asked).toContain('/55.4481,-20.8789.json');
    expect(asked).toContain('types=country%2Cregion%2Cplace%2Clocality%2Cneighborhood%2Caddress');
    expect(asked).toContain('limit=1');
  });

  it('calls no result or a maritime name open sea', () => {
    expect(verdictOf(null)).toBe('sea');
    expect(verdictOf('Océan Indien')).toBe('sea');
    expect(verdictOf('Mer Méditerranée')).toBe('sea');
    expect(verdictOf('Marseille, Bouches-du-Rhône, France')).toBe('land');
    expect(verdictOf('Merville, Nord, France')).toBe('land');
  });

  it('only ever refuses more than the offline check: it never fails open', async () => {
    const offline = (lat: number) => lat > 0; // stands for the polygons
    const sea = withVerdictCache(createMapboxGeocoder('t', answer(null)));
    const land = withVerdictCache(createMapboxGeocoder('t', answer('Paris, France')));
    const broken = withVerdictCache(createMapboxGeocoder('t', answer('x', 500)));
    expect(await createLandDecision(offline, land)(-10, 0)).toBe('off_land');
    // The geocoder knows it is sea: the decision says so, for the open-sea text.
    expect(await createLandDecision(offline, sea)(10, 0)).toBe('sea');
    expect(await createLandDecision(offline, land)(10, 0)).toBe('land');
    // A failing service leaves the offline answer standing, in both directions.
    expect(await createLandDecision(offline, broken)(10, 0)).toBe('land');
    expect(await createLandDecision(offline, broken)(-10, 0)).toBe('off_land');
    expect(await createLandDecision(offline)(10, 0)).toBe('land');
  });

  it('caches verdicts 24 h per coordinates rounded to 4 decimals', async () => {
    let calls = 0;
    const geocoder: Geocoder = {
      reverse: async () => {
        calls++;
        return 'Paris, France';
      },
    };
    let clock = 0;
    const verdict = withVerdictCache(geocoder, () => clock);
    await verdict(48.85661, 2.35221);
    await verdict(48.85664, 2.35224);
    expect(calls).toBe(1);
    clock += 24 * 3_600_000;
    await verdict(48.85661, 2.35221);
    expect(calls).toBe(2);
  });
});
