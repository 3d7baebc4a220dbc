/**
 * The posts as MapLibre sources and layers (docs/architecture.md, "The map's markers"), drawn by
 * the GPU:
 * - source `mm-markers`: the 100 m groups (marker-groups.ts), clustered by MapLibre's worker
 *   below zoom 9 (60 px, counts summed), updated with diffs; clustering is on only below zoom 9
 *   (syncClustering), where it draws anything;
 * - source `mm-aggregates`: the server's zoomed-out grid clusters;
 * - source `mm-highlight`: a copy of the one to three markers drawn larger (selected, hovered,
 *   keyboard-focused). A source of their own: a filter on the big source would make MapLibre lay
 *   out all its tiles again, and the map redraw, on every tap or hover;
 * - layers: the pulse posts (a transparent circle layer: pulse.ts reads it and plays the rings
 *   over the canvas), the markers (icons from the atlas, marker-images.ts), the aggregates, and
 *   on top the highlighted markers.
 * A style change drops our layers: `ensureMarkerLayers` puts them back (same data, new theme).
 */
import type { ExpressionSpecification, GeoJSONSource, Map as MapLibreMap } from 'maplibre-gl';
import type { Feature, FeatureCollection, Point } from 'geojson';
import { MOOD_INFO } from '@moodmap/core';
import type { ServerCluster } from '../../posts/for-map.ts';
import type { MarkerGroup } from './marker-groups.ts';
import { POST_MARKER_SIZE, type Theme, postIconKey } from './marker-images.ts';

export const MARKERS_SOURCE = 'mm-markers';
export const AGGREGATES_SOURCE = 'mm-aggregates';
export const HIGHLIGHT_SOURCE = 'mm-highlight';
/** The single pulse posts as drawn (not inside a MapLibre cluster), for pulse.ts. */
export const PULSE_LAYER = 'mm-pulse-a';
export const MARKERS_LAYER = 'mm-markers';
export const AGGREGATES_LAYER = 'mm-aggregates';
export const HIGHLIGHT_LAYER = 'mm-highlight';
/** What a tap can hit, topmost first. */
export const CLICKABLE_LAYERS = [HIGHLIGHT_LAYER, AGGREGATES_LAYER, MARKERS_LAYER];
/** Below this zoom, nearby groups aggregate (as supercluster did in the browser). */
export const AGGREGATE_BELOW_ZOOM = 9;
export const AGGREGATE_RADIUS_PX = 60;

/** Feature properties. k: 'p' single post, 'g' 100 m group, 's' server aggregate; n: posts in it. */
export interface MarkerProps {
  k: 'p' | 'g' | 's';
  n: number;
  /** Single posts: the post id, mood, pulse (1/0), mood colour and icon key. */
  pid?: string;
  mood?: string;
  pulse?: number;
  color?: string;
  icon?: string;
}

export function groupFeature(group: MarkerGroup): Feature<Point, MarkerProps> {
  const geometry: Point = { type: 'Point', coordinates: [group.longitude, group.latitude] };
  if (group.members.length > 1)
    return { type: 'Feature', id: group.id, geometry, properties: { k: 'g', n: group.members.length } };
  const m = group.members[0]!;
  return {
    type: 'Feature',
    id: group.id,
    geometry,
    properties: {
      k: 'p',
      n: 1,
      pid: m.id,
      mood: m.category,
      pulse: m.hasPulseEffect ? 1 : 0,
      color: MOOD_INFO[m.category].color,
      icon: postIconKey(m.category, m.nickname, m.photoUrl),
    },
  };
}

export function aggregateFeatures(clusters: readonly ServerCluster[]): FeatureCollection<Point, MarkerProps> {
  return {
    type: 'FeatureCollection',
    features: clusters.map((c, i) => ({
      type: 'Feature',
      id: i + 1,
      geometry: { type: 'Point', coordinates: [c.longitude, c.latitude] },
      properties: { k: 's', n: c.count, pid: c.id },
    })),
  };
}

/** Whether two lists of server aggregates draw the same (the aggregates source needs no new data). */
export function sameAggregates(a: readonly ServerCluster[], b: readonly ServerCluster[]): boolean {
  return (
    a.length === b.length &&
    a.every(
      (c, i) =>
        c.id === b[i]!.id &&
        c.count === b[i]!.count &&
        c.latitude === b[i]!.latitude &&
        c.longitude === b[i]!.longitude,
    )
  );
}

/** The aggregates last given to a map's aggregates source (syncAggregates). */
export interface DrawnAggregates {
  map: MapLibreMap;
  clusters: readonly ServerCluster[];
}

/**
 * Gives the aggregates source `clusters` unless it already draws the same: every answer derived
 * from a live post brings a fresh (often empty) list, and setData reloads the source's tiles and
 * redraws the map. Returns what the source draws now (the next call's `drawn`).
 */
export function syncAggregates(
  map: MapLibreMap,
  clusters: readonly ServerCluster[],
  drawn: DrawnAggregates | null,
): DrawnAggregates | null {
  const source = map.getSource<GeoJSONSource>(AGGREGATES_SOURCE);
  if (!source) return drawn;
  if (drawn && drawn.map === map && sameAggregates(drawn.clusters, clusters)) return drawn;
  void source.setData(aggregateFeatures(clusters));
  return { map, clusters };
}

const EMPTY: FeatureCollection = { type: 'FeatureCollection', features: [] };

/** The icon of a feature: a post's photo marker, or a count bubble (MapLibre's clusters included). */
function iconExpression(theme: Theme): ExpressionSpecification {
  return [
    'case',
    ['has', 'point_count'],
    ['concat', `mma:${theme}:`, ['to-string', ['get', 'n']]],
    ['==', ['get', 'k'], 's'],
    ['concat', `mma:${theme}:`, ['to-string', ['get', 'n']]],
    ['==', ['get', 'k'], 'g'],
    ['concat', `mmg:${theme}:`, ['to-string', ['get', 'n']]],
    ['concat', `mmp:${theme}:`, ['get', 'icon']],
  ];
}

/**
 * The style's JSON is in: sources and layers can be added. Not map.isStyleLoaded(), which also
 * waits for every source's tiles: the markers then went to MapLibre's worker only after the
 * basemap's first tiles were laid out and drawn, one after the other instead of side by side.
 */
export function styleReady(map: MapLibreMap): boolean {
  return map.style?._loaded === true;
}

/** Adds our sources and layers if the style lacks them (first load, or after a style change). */
export function ensureMarkerLayers(
  map: MapLibreMap,
  theme: Theme,
  markers: () => FeatureCollection<Point, MarkerProps>,
  aggregates: () => FeatureCollection,
  highlighted: () => FeatureCollection = emptyCollection,
): boolean {
  const layer = map.getLayer(MARKERS_LAYER);
  if (layer && map.getLayoutProperty(MARKERS_LAYER, 'icon-image')?.toString().includes(theme)) return false;
  // 'mm-pulse-b': the second ring layer of earlier versions (a style diff may still hold it).
  for (const id of [HIGHLIGHT_LAYER, AGGREGATES_LAYER, MARKERS_LAYER, PULSE_LAYER, 'mm-pulse-b'])
    if (map.getLayer(id)) map.removeLayer(id);
  if (!map.getSource(MARKERS_SOURCE)) {
    map.addSource(MARKERS_SOURCE, {
      type: 'geojson',
      // Empty, then filled by a diff: the source keeps its features by id from the start, so the
      // next single-post diff costs its own size, not a first conversion of every feature.
      data: EMPTY,
      cluster: clusteredAt(map.getZoom()),
      // A diff reloads the tiles whose box, this margin included, holds a changed feature: a
      // marker's width is enough (a symbol is laid out by the tile holding its anchor only, the
      // pulse circle by those it touches); MapLibre's 128 px made most diffs reload 4 tiles.
      buffer: POST_MARKER_SIZE,
      clusterMaxZoom: AGGREGATE_BELOW_ZOOM - 1,
      clusterRadius: AGGREGATE_RADIUS_PX,
      clusterProperties: { n: ['+', ['get', 'n']] },
    });
    void markersSource(map)?.updateData({ removeAll: true, add: markers().features });
  }
  if (!map.getSource(AGGREGATES_SOURCE)) map.addSource(AGGREGATES_SOURCE, { type: 'geojson', data: aggregates() });
  if (!map.getSource(HIGHLIGHT_SOURCE)) map.addSource(HIGHLIGHT_SOURCE, { type: 'geojson', data: highlighted() });
  // Transparent (MapLibre skips drawing it): the rings are played over the canvas by pulse.ts.
  map.addLayer({
    id: PULSE_LAYER,
    type: 'circle',
    source: MARKERS_SOURCE,
    filter: ['all', ['!', ['has', 'point_count']], ['==', ['get', 'pulse'], 1]],
    paint: { 'circle-color': ['get', 'color'], 'circle-radius': POST_MARKER_SIZE / 2, 'circle-opacity': 0 },
  });
  const icons = {
    'icon-image': iconExpression(theme),
    'icon-allow-overlap': true,
    'icon-ignore-placement': true,
  };
  map.addLayer({ id: MARKERS_LAYER, type: 'symbol', source: MARKERS_SOURCE, layout: { ...icons } });
  map.addLayer({ id: AGGREGATES_LAYER, type: 'symbol', source: AGGREGATES_SOURCE, layout: { ...icons } });
  map.addLayer({
    id: HIGHLIGHT_LAYER,
    type: 'symbol',
    source: HIGHLIGHT_SOURCE,
    layout: { ...icons, 'icon-size': 1.12 },
  });
  return true;
}

/** The highlighted markers' features: copies of their groups' (same ids, so a tap on one finds its group). */
export function highlightFeatures(groups: readonly MarkerGroup[]): FeatureCollection<Point, MarkerProps> {
  return { type: 'FeatureCollection', features: groups.map(groupFeature) };
}

/** Draws these markers larger, on top (the selected, hovered and keyboard-focused ones). */
export function setHighlighted(map: MapLibreMap, groups: readonly MarkerGroup[]): void {
  map.getSource<GeoJSONSource>(HIGHLIGHT_SOURCE)?.setData(highlightFeatures(groups));
}

/** Whether the markers source clusters at this zoom: MapLibre's clusters exist only below zoom 9. */
export function clusteredAt(zoom: number): boolean {
  return zoom < AGGREGATE_BELOW_ZOOM;
}

/**
 * Turns the markers source's clustering on below zoom 9 and off from zoom 9 on. From
 * zoom 9 a clustered source draws its points as they are, but it answers every diff by building
 * its cluster index again over all its features and reloading every tile in view (a point may
 * regroup clusters anywhere): one live post on a map holding 10^5 costs several full frames of
 * main thread on a phone. Unclustered, a diff updates the worker's index in
 * place and reloads only the tiles it touches. Called on every 'zoom': the flip comes with the
 * tiles of the new whole zoom (8 → 9) that load anyway, and before the clustered tiles are asked for.
 */
export function syncClustering(map: MapLibreMap): void {
  const source = markersSource(map);
  const wanted = clusteredAt(map.getZoom());
  if (source && source.getClusterOptions().cluster !== wanted) void source.setClusterOptions({ cluster: wanted });
}

export function markersSource(map: MapLibreMap): GeoJSONSource | undefined {
  return map.getSource<GeoJSONSource>(MARKERS_SOURCE);
}

export function emptyCollection(): FeatureCollection {
  return EMPTY;
}
