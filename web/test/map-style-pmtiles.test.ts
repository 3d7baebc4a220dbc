// @vitest-environment jsdom
/**
 * Which basemap the map shows: MAP_STYLE_URL first, then the PMTiles archive
 * drawn with the Protomaps style, then the embedded basemap, each falling to the next when it
 * failed; and the Protomaps style itself: both themes, French names, nothing fetched from a CDN.
 */
import { describe, expect, it } from 'vitest';
import type { LayerSpecification } from 'maplibre-gl';
import { chooseStyle } from '../src/features/map/map-style.ts';
import { pmtilesStyleUrl } from '../src/features/map/pmtiles-protocol.ts';
import { PROTOMAPS_SOURCE, protomapsStyle } from '../src/features/map/pmtiles-style.ts';

const none = { mapStyleUrl: null, mapStyleUrlDark: null, mapPmtilesUrl: null };
const archive = { ...none, mapPmtilesUrl: '/api/geo/basemap.pmtiles' };
const origin = window.location.origin;

describe('chooseStyle with MAP_PMTILES', () => {
  it('draws the archive when no style URL is set, one style per theme, the archive made absolute', () => {
    const light = chooseStyle('light', archive, new Set());
    const dark = chooseStyle('dark', archive, new Set());
    expect(light).toMatchObject({ embedded: false, theme: 'light' });
    expect(light.style).toBe(
      `moodmap-pmtiles://light?archive=${encodeURIComponent(`${origin}/api/geo/basemap.pmtiles`)}`,
    );
    expect(light.key).toBe(light.style);
    expect(dark.style).toBe(pmtilesStyleUrl('dark', '/api/geo/basemap.pmtiles'));
    expect(dark.key).not.toBe(light.key);
  });

  it('keeps an archive URL on another host as it is', () => {
    const remote = chooseStyle(
      'light',
      { ...none, mapPmtilesUrl: 'https://tiles.example.org/france.pmtiles' },
      new Set(),
    );
    expect(remote.style).toBe(
      `moodmap-pmtiles://light?archive=${encodeURIComponent('https://tiles.example.org/france.pmtiles')}`,
    );
  });

  it('lets MAP_STYLE_URL win, and falls from it to the archive, then to the embedded basemap', () => {
    const both = { ...archive, mapStyleUrl: 'https://tiles.example/light.json' };
    expect(chooseStyle('light', both, new Set()).style).toBe('https://tiles.example/light.json');
    const urlFailed = chooseStyle('light', both, new Set(['https://tiles.example/light.json']));
    expect(urlFailed.style).toBe(pmtilesStyleUrl('light', '/api/geo/basemap.pmtiles'));
    const allFailed = chooseStyle('light', both, new Set(['https://tiles.example/light.json', urlFailed.key]));
    expect(allFailed).toMatchObject({ embedded: true, key: 'embedded:light' });
  });

  it('shows the embedded basemap without MAP_PMTILES', () => {
    expect(chooseStyle('dark', none, new Set())).toMatchObject({ embedded: true, key: 'embedded:dark' });
    // A config from a server that predates the field.
    expect(chooseStyle('dark', { mapStyleUrl: null, mapStyleUrlDark: null }, new Set()).embedded).toBe(true);
  });
});

describe('the Protomaps style', () => {
  const url = 'http://127.0.0.1:3000/api/geo/basemap.pmtiles';
  const light = protomapsStyle('light', url);
  const dark = protomapsStyle('dark', url);
  const byId = (style: typeof light, id: string) =>
    style.layers.find((l) => l.id === id) as LayerSpecification & {
      layout?: Record<string, unknown>;
      paint?: Record<string, unknown>;
    };

  it('reads the archive through the pmtiles protocol', () => {
    expect(light.sources).toEqual({
      [PROTOMAPS_SOURCE]: expect.objectContaining({ type: 'vector', url: `pmtiles://${url}` }),
    });
    const ids = light.layers.map((l) => l.id);
    expect(ids).toEqual(expect.arrayContaining(['background', 'earth', 'water', 'roads_major', 'places_locality']));
  });

  it('asks nothing of a glyph or sprite server: labels are drawn locally, sprite icons left out', () => {
    for (const style of [light, dark]) {
      expect(style.glyphs).toBeUndefined();
      expect(style.sprite).toBeUndefined();
      expect(style.layers.filter((l) => l.type === 'symbol' && l.layout && 'icon-image' in l.layout)).toEqual([]);
      // The labels themselves stay.
      expect(byId(style, 'places_locality').layout?.['text-field']).toBeDefined();
      expect(byId(style, 'roads_labels_major')).toBeDefined();
    }
    // Beside the archive (its source, checked above), no URL anywhere in the style.
    expect(/https?:/.test(JSON.stringify({ ...light, sources: {} }))).toBe(false);
  });

  it('names places in French first', () => {
    const field = JSON.stringify(byId(light, 'places_locality').layout?.['text-field']);
    expect(field).toContain('"name:fr"');
    expect(field.indexOf('"name:fr"')).toBeLessThan(field.indexOf('"name:en"'));
  });

  it('has a light and a dark palette over the same layers', () => {
    expect(dark.layers.map((l) => l.id)).toEqual(light.layers.map((l) => l.id));
    expect(byId(dark, 'background').paint?.['background-color']).not.toBe(
      byId(light, 'background').paint?.['background-color'],
    );
    expect(byId(dark, 'earth').paint?.['fill-color']).not.toBe(byId(light, 'earth').paint?.['fill-color']);
  });
});
