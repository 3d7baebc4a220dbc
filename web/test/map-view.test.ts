// @vitest-environment jsdom
import { beforeEach, describe, expect, it } from 'vitest';
import { MAP } from '@moodmap/core';
import { defaultView, initialView, isValidView, saveView } from '../src/features/map/map-view.ts';
import type { SymbolLayerSpecification } from 'maplibre-gl';
import { featureFilter, validateStyleMin } from '@maplibre/maplibre-gl-style-spec';
import { PLACE_LABEL_LAYERS, basemapStyle } from '../src/features/map/basemap-style.ts';
import { chooseStyle } from '../src/features/map/map-style.ts';
import { geolocationErrorMessage } from '../src/features/map/geolocation.ts';
import { STORAGE_KEYS } from '../src/lib/storage.ts';

const persist = (value: unknown) => localStorage.setItem(STORAGE_KEYS.mapLocation, JSON.stringify(value));
const persisted = () => JSON.parse(localStorage.getItem(STORAGE_KEYS.mapLocation) ?? 'null') as unknown;

describe('map view', () => {
  beforeEach(() => localStorage.clear());

  it('defaults to the mobile view up to 768 px and the desktop view above', () => {
    expect(defaultView(390)).toEqual({ latitude: -15, longitude: 47, zoom: 3.2 });
    expect(defaultView(768)).toEqual(MAP.mobileView);
    expect(defaultView(769)).toEqual({ latitude: 30, longitude: 20, zoom: 2.5 });
    expect(defaultView(1440)).toEqual(MAP.desktopView);
  });

  it('opens at the last persisted position', () => {
    persist({ latitude: 48.85, longitude: 2.35, zoom: 11 });
    expect(initialView(1440)).toEqual({ latitude: 48.85, longitude: 2.35, zoom: 11 });
  });

  it.each([
    ['zoom above 20', { latitude: 10, longitude: 10, zoom: 20.5 }],
    ['zoom below 1', { latitude: 10, longitude: 10, zoom: 0.5 }],
    ['latitude out of range', { latitude: 95, longitude: 10, zoom: 5 }],
    ['longitude out of range', { latitude: 10, longitude: -181, zoom: 5 }],
    ['a missing field', { latitude: 10, zoom: 5 }],
    ['strings', { latitude: '10', longitude: '10', zoom: '5' }],
    ['null', null],
  ])('resets to the default for %s, and stores the default', (_label, value) => {
    persist(value);
    expect(initialView(390)).toEqual(MAP.mobileView);
    expect(persisted()).toEqual(MAP.mobileView);
    persist(value);
    expect(initialView(1440)).toEqual(MAP.desktopView);
  });

  it('resets when the stored text is not JSON', () => {
    localStorage.setItem(STORAGE_KEYS.mapLocation, '{oops');
    expect(initialView(1024)).toEqual(MAP.desktopView);
  });

  it('accepts the edges of the valid range', () => {
    expect(isValidView({ latitude: -85, longitude: 180, zoom: 1 })).toBe(true);
    expect(isValidView({ latitude: 85, longitude: -180, zoom: 20 })).toBe(true);
    expect(isValidView({ latitude: Number.NaN, longitude: 0, zoom: 3 })).toBe(false);
  });

  it('saves only valid views, rounded', () => {
    saveView({ latitude: 45.1234567, longitude: 5.7654321, zoom: 7.456 });
    expect(persisted()).toEqual({ latitude: 45.12346, longitude: 5.76543, zoom: 7.46 });
    saveView({ latitude: 45, longitude: 5, zoom: 42 });
    expect(persisted()).toEqual({ latitude: 45.12346, longitude: 5.76543, zoom: 7.46 });
  });
});

describe('map style', () => {
  const config = { mapStyleUrl: null, mapStyleUrlDark: null };

  it('draws sea, land and borders from our API, with light and dark palettes', () => {
    const light = basemapStyle('light');
    const dark = basemapStyle('dark');
    expect(light.layers.map((l) => l.id).filter((id) => ['sea', 'land', 'coastline', 'borders'].includes(id))).toEqual([
      'sea',
      'land',
      'coastline',
      'borders',
    ]);
    expect(dark.layers.map((l) => l.id)).toEqual(light.layers.map((l) => l.id));
    expect(light.glyphs).toBeUndefined();
    // Vector tiles for the view, not world GeoJSON.
    expect(light.sources).toEqual({
      basemap: expect.objectContaining({
        type: 'vector',
        tiles: [expect.stringMatching(/\/api\/geo\/tiles\/\{z\}\/\{x\}\/\{y\}\.pbf$/)],
      }),
    });
    const sea = (s: typeof light) =>
      (s.layers[0] as unknown as { paint: Record<string, string> }).paint['background-color'];
    expect(sea(light)).not.toBe(sea(dark));
  });

  it('writes place names from the `places` tiles with local glyphs, most important first, above every other layer', () => {
    const light = basemapStyle('light');
    const labels = light.layers.filter((l) => l.type === 'symbol');
    expect(labels.map((l) => l.id)).toEqual([...PLACE_LABEL_LAYERS]);
    for (const label of labels as SymbolLayerSpecification[]) {
      expect(label['source-layer']).toBe('places');
      expect(label.layout?.['text-field']).toEqual(['get', 'name']);
      expect(label.layout?.['symbol-sort-key']).toEqual(['get', 'rank']);
      // Collisions hide the less important name rather than overlap it.
      expect(label.layout?.['text-allow-overlap'] ?? false).toBe(false);
      expect(label.paint?.['text-halo-width']).toBeGreaterThan(0);
    }
    expect(light.layers.at(-1)!.type).toBe('symbol');
    // No glyph server: MapLibre draws the text with the browser's fonts.
    expect('glyphs' in light).toBe(false);
    expect('glyphs' in basemapStyle('dark')).toBe(false);
    const sourceLayers = new Set(
      light.layers.map((l) => (l as { 'source-layer'?: string })['source-layer']).filter(Boolean),
    );
    expect([...sourceLayers].sort()).toEqual(['admin', 'borders', 'land', 'places', 'rivers', 'roads', 'water']);
  });

  it('names a village of the deepest tiles only from the zoom its `minzoom` says, other places at any zoom', () => {
    for (const theme of ['light', 'dark'] as const) expect(validateStyleMin(basemapStyle(theme))).toEqual([]);
    const labels = basemapStyle('light').layers.find((l) => l.id === 'place-labels') as SymbolLayerSpecification;
    const { filter } = featureFilter(labels.filter, 'layers.place-labels.filter');
    const drawn = (zoom: number, properties: Record<string, unknown>) => filter({ zoom }, { type: 1, properties });
    // Ornans is in the z8 tiles with minzoom 9: MapLibre lays the overzoomed tile out again at 9.
    expect(drawn(8, { name: 'Ornans', minzoom: 9 })).toBe(false);
    expect(drawn(9, { name: 'Ornans', minzoom: 9 })).toBe(true);
    expect(drawn(14, { name: 'Ornans', minzoom: 9 })).toBe(true);
    expect(drawn(2, { name: 'Paris' })).toBe(true);
  });

  it('switches theme by paint alone: same sources, layer ids and layouts, other colours', () => {
    const light = basemapStyle('light');
    const dark = basemapStyle('dark');
    const shape = (s: typeof light) => s.layers.map(({ paint: _paint, ...rest }) => rest);
    expect(shape(dark)).toEqual(shape(light));
    expect(dark.sources).toEqual(light.sources);
    const paintOf = (s: typeof light, id: string) =>
      s.layers.find((l) => l.id === id)!.paint as Record<string, unknown>;
    for (const id of ['water', 'place-labels']) expect(paintOf(dark, id)).not.toEqual(paintOf(light, id));
  });

  it('uses a configured style URL per theme, and the embedded one when it failed', () => {
    const urls = {
      ...config,
      mapStyleUrl: 'https://tiles.example/light.json',
      mapStyleUrlDark: 'https://tiles.example/dark.json',
    };
    expect(chooseStyle('light', urls, new Set()).style).toBe('https://tiles.example/light.json');
    expect(chooseStyle('dark', urls, new Set()).style).toBe('https://tiles.example/dark.json');
    expect(chooseStyle('dark', { ...urls, mapStyleUrlDark: null }, new Set()).style).toBe(
      'https://tiles.example/light.json',
    );
    const fallback = chooseStyle('dark', urls, new Set(['https://tiles.example/dark.json']));
    expect(fallback.embedded).toBe(true);
    expect(fallback.key).toBe('embedded:dark');
    expect(chooseStyle('light', config, new Set()).embedded).toBe(true);
  });
});

describe('geolocation errors', () => {
  it('maps each failure to its French text', () => {
    expect(geolocationErrorMessage({ code: 1 })).toBe('Accès à la localisation refusé...');
    expect(geolocationErrorMessage({ code: 2 })).toBe('Position non disponible...');
    expect(geolocationErrorMessage({ code: 3 })).toBe("Délai d'attente dépassé pour obtenir la position.");
    expect(geolocationErrorMessage({ code: 9 })).toBe('Erreur de géolocalisation...');
    expect(geolocationErrorMessage(null)).toBe('Erreur de géolocalisation...');
  });
});
