/**
 * Optional reverse geocoder. The offline land
 * check always decides first and never fails open; when a geocoder is configured it may only
 * refuse more: no place found, or a maritime place name, means open sea. A geocoder failure,
 * timeout or exhausted quota leaves the offline answer standing.
 */
import { DAY } from '@moodmap/core';
export interface Geocoder {
  /** `features[0].place_name` for the point, null when the service finds nothing. Throws on failure. */
  reverse(latitude: number, longitude: number): Promise<string | null>;
}

export type GeocodeVerdict = 'land' | 'sea' | 'unknown';

/** Place names starting with ocean or sea words are a maritime zone. */
const MARITIME = /^(océan|ocean|mer\b|sea\b|golfe|gulf|baie|bay|manche|détroit|strait|canal de)/i;
const CACHE_MS = DAY;
const CACHE_MAX = 10_000;

export function verdictOf(placeName: string | null): GeocodeVerdict {
  if (placeName === null) return 'sea';
  return MARITIME.test(placeName.trim()) ? 'sea' : 'land';
}

/** Wraps a geocoder with a 24 h cache keyed by coordinates rounded to 4 decimals. */
export function withVerdictCache(geocoder: Geocoder, now: () => number = Date.now) {
  const cache = new Map<string, { verdict: GeocodeVerdict; at: number }>();
  return async (latitude: number, longitude: number): Promise<GeocodeVerdict> => {
    const key = `${latitude.toFixed(4)},${longitude.toFixed(4)}`;
    const hit = cache.get(key);
    if (hit && now() - hit.at < CACHE_MS) return hit.verdict;
    let verdict: GeocodeVerdict;
    try {
      verdict = verdictOf(await geocoder.reverse(latitude, longitude));
    } catch {
      return 'unknown';
    }
    if (cache.size >= CACHE_MAX) cache.delete(cache.keys().next().value as string);
    cache.set(key, { verdict, at: now() });
    return verdict;
  };
}

/** Mapbox's reverse geocoding with its place types, limit 1; 3 s timeout. */
export function createMapboxGeocoder(token: string, fetchImpl: typeof fetch = fetch): Geocoder {
  return {
    async reverse(latitude, longitude) {
      const url = new URL(`https://api.mapbox.com/geocoding/v5/mapbox.places/${longitude},${latitude}.json`);
      url.searchParams.set('types', 'country,region,place,locality,neighborhood,address');
      url.searchParams.set('limit', '1');
      url.searchParams.set('access_token', token);
      const res = await fetchImpl(url, { signal: AbortSignal.timeout(3_000) });
      if (!res.ok) throw new Error(`geocoder ${res.status}`);
      const body = (await res.json()) as { features?: Array<{ place_name?: string }> };
      return body.features?.[0]?.place_name ?? null;
    },
  };
}

/**
 * Where a point lies: 'land', 'off_land' (outside the offline land polygons) or 'sea' (the
 * geocoder found no place or a maritime one: no result means open sea, which has its
 * own text, 'Cette position est en pleine mer...').
 */
export type LandDecision = 'land' | 'off_land' | 'sea';

/** The land decision: offline polygons first, then the geocoder may refuse a doubtful point. */
export function createLandDecision(
  isOnLandOffline: (lat: number, lon: number) => boolean,
  verdict?: (lat: number, lon: number) => Promise<GeocodeVerdict>,
) {
  return async (latitude: number, longitude: number): Promise<LandDecision> => {
    if (!isOnLandOffline(latitude, longitude)) return 'off_land';
    if (!verdict) return 'land';
    return (await verdict(latitude, longitude)) === 'sea' ? 'sea' : 'land';
  };
}
