/**
 * The markers' sources, layers and atlas on the map (marker-layers.ts, marker-images.ts), set up
 * again after every style change, and the server's zoomed-out aggregates they draw.
 */
import { type RefObject, useCallback, useEffect, useMemo, useRef } from 'react';
import type { Map as MapLibreMap } from 'maplibre-gl';
import type { FeatureCollection, Point } from 'geojson';
import type { Mood } from '@moodmap/core';
import { useReducedMotion } from '../../../ui/motion.ts';
import { useThemeStore } from '../../theme/theme-store.ts';
import type { ServerCluster } from '../../posts/for-map.ts';
import type { MarkerGroup, MarkerGroups } from './marker-groups.ts';
import { type Theme, provideImage } from './marker-images.ts';
import {
  type DrawnAggregates,
  type MarkerProps,
  aggregateFeatures,
  ensureMarkerLayers,
  groupFeature,
  highlightFeatures,
  styleReady,
  syncAggregates,
  syncClustering,
} from './marker-layers.ts';
import { startPulse } from './pulse.ts';
import { mapPixelRatio } from '../world-map.ts';

/** The markers drawn larger now (setHighlighted), kept for a style change to draw them again. */
export interface Highlighted {
  key: string;
  groups: MarkerGroup[];
}

/** The server's aggregates with the counts of the moods shown; those left empty are not drawn. */
export function useShownClusters(clusters: readonly ServerCluster[], moods: readonly Mood[]): ServerCluster[] {
  return useMemo(
    () =>
      clusters.flatMap((c) => {
        const count =
          c.moods && Object.keys(c.moods).length > 0 ? moods.reduce((n, m) => n + (c.moods[m] ?? 0), 0) : c.count;
        return count > 0 ? [{ ...c, count }] : [];
      }),
    [clusters, moods],
  );
}

/** Sources, layers and the atlas; again after every style change (theme, fallback basemap). */
export function useMarkerLayers(
  map: MapLibreMap | null,
  groups: MarkerGroups,
  shownClusters: readonly ServerCluster[],
): RefObject<Highlighted> {
  const theme: Theme = useThemeStore((s) => s.theme) === 'dark' ? 'dark' : 'light';
  const reducedMotion = useReducedMotion();
  const allFeatures = useCallback(
    (): FeatureCollection<Point, MarkerProps> => ({
      type: 'FeatureCollection',
      features: [...groups.allGroups()].map(groupFeature),
    }),
    [groups],
  );
  // Read when the layers are added, not a reason to add them again.
  const shownClustersRef = useRef(shownClusters);
  shownClustersRef.current = shownClusters;
  const highlighted = useRef<Highlighted>({ key: '', groups: [] });
  useEffect(() => {
    if (!map) return;
    const ratio = mapPixelRatio();
    const ensure = () => {
      if (!styleReady(map)) return;
      ensureMarkerLayers(
        map,
        theme,
        allFeatures,
        () => aggregateFeatures(shownClustersRef.current),
        () => highlightFeatures(highlighted.current.groups),
      );
    };
    // MapLibre 6 draws a missing icon only if a resolver adds it before the tile's layout goes
    // on; a 'styleimagemissing' listener comes too late for that tile (the marker stays blank).
    map.setMissingStyleImageResolver((id) => {
      provideImage(map, id, ratio);
    });
    // Clustering only below zoom 9, where MapLibre draws clusters (marker-layers.ts).
    const cluster = () => syncClustering(map);
    map.on('styledata', ensure);
    map.on('load', ensure);
    map.on('zoom', cluster);
    ensure();
    const stopPulse = startPulse(map, reducedMotion);
    return () => {
      map.setMissingStyleImageResolver(null);
      map.off('styledata', ensure);
      map.off('load', ensure);
      map.off('zoom', cluster);
      stopPulse();
    };
  }, [map, theme, allFeatures, reducedMotion]);
  return highlighted;
}

/**
 * The server's zoomed-out aggregates, when they change: every answer derived from a live post
 * brings a fresh (often empty) list, and setData reloads the source's tiles and redraws the map.
 */
export function useAggregates(map: MapLibreMap | null, shownClusters: readonly ServerCluster[]): void {
  const drawnAggregates = useRef<DrawnAggregates | null>(null);
  useEffect(() => {
    if (map) drawnAggregates.current = syncAggregates(map, shownClusters, drawnAggregates.current);
  }, [map, shownClusters]);
}
