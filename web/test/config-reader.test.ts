/**
 * The config answer is read without zod (the map waits for it): the reader must accept
 * exactly what core's clientConfigSchema accepts, and read the same URLs from it.
 */
import { describe, expect, it } from 'vitest';
import { clientConfigSchema } from '@moodmap/core/schemas';
import { readConfig } from '../src/lib/config.ts';

const answers: Array<[string, unknown]> = [
  ['the embedded basemap', { mapStyleUrl: null, mapStyleUrlDark: null, mapPmtilesUrl: null, isAdmin: false }],
  [
    'styles by URL',
    {
      mapStyleUrl: 'https://tiles.example/light.json',
      mapStyleUrlDark: 'https://tiles.example/dark.json',
      isAdmin: true,
    },
  ],
  [
    'a PMTiles archive',
    { mapStyleUrl: null, mapStyleUrlDark: null, mapPmtilesUrl: '/api/geo/basemap.pmtiles', isAdmin: false },
  ],
  ['empty URLs', { mapStyleUrl: '', mapStyleUrlDark: '', mapPmtilesUrl: '', isAdmin: false }],
  ['extra fields', { mapStyleUrl: null, mapStyleUrlDark: null, isAdmin: false, other: 1 }],
  ['a missing style field', { mapStyleUrlDark: null, isAdmin: false }],
  ['a number for a URL', { mapStyleUrl: 3, mapStyleUrlDark: null, isAdmin: false }],
  [
    'a PMTiles URL that is not a string',
    { mapStyleUrl: null, mapStyleUrlDark: null, mapPmtilesUrl: {}, isAdmin: false },
  ],
  ['no isAdmin', { mapStyleUrl: null, mapStyleUrlDark: null }],
  ['an error body', { error: { code: 'internal_error', message: 'Une erreur est survenue. Veuillez réessayer.' } }],
  ['null', null],
  ['a string', 'config'],
];

describe('config answer reader (lib/config.ts)', () => {
  it.each(answers)('agrees with core’s clientConfigSchema on %s', (_, answer) => {
    const parsed = clientConfigSchema.safeParse(answer);
    const read = readConfig(answer);
    expect(read !== null).toBe(parsed.success);
    if (parsed.success) {
      // As the app reads them: an empty URL is no URL.
      expect(read).toEqual({
        mapStyleUrl: parsed.data.mapStyleUrl || null,
        mapStyleUrlDark: parsed.data.mapStyleUrlDark || null,
        mapPmtilesUrl: parsed.data.mapPmtilesUrl || null,
      });
    }
  });
});
