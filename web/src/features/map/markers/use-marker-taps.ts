/** Taps and hovers on the markers, hit-tested on their layers, and what a tap or Enter opens. */
import { type RefObject, useCallback, useEffect, useState } from 'react';
import type { MapGeoJSONFeature, Map as MapLibreMap, MapMouseEvent } from 'maplibre-gl';
import type { Point } from 'geojson';
import { useQueryClient } from '@tanstack/react-query';
import { moveCamera } from '../../../ui/motion.ts';
import { prefetchPostCard } from '../../posts/for-map.ts';
import type { MarkerGroups } from './marker-groups.ts';
import { AGGREGATES_SOURCE, CLICKABLE_LAYERS, type MarkerProps, markersSource } from './marker-layers.ts';
import type { NavItem } from './nav-items.ts';
import { trackHover } from './hover.ts';
import { postponeRepaint, postponeTapRepaints } from '../after-paint.ts';
import type { SetSelection } from './use-selection.ts';

export type Activate = (target: NavItem['target'], longitude: number, latitude: number) => void;

/** What a tap or Enter on a marker does: a post's card, a group's list, or a closer look. */
export function useActivate(map: MapLibreMap | null, groups: MarkerGroups, setSelection: SetSelection): Activate {
  const client = useQueryClient();
  return useCallback(
    (target: NavItem['target'], longitude: number, latitude: number) => {
      if (!map) return;
      if (target.kind === 'cluster') {
        setSelection(null);
        void markersSource(map)
          ?.getClusterExpansionZoom(target.clusterId)
          .then((zoom) =>
            moveCamera(
              map,
              { center: [longitude, latitude], zoom: Math.max(map.getZoom() + 1, zoom), duration: 600 },
              'ease',
            ),
          )
          .catch(() => undefined);
        return;
      }
      if (target.kind === 'aggregate') {
        setSelection(null);
        moveCamera(map, { center: [longitude, latitude], zoom: Math.floor(map.getZoom()) + 2, duration: 800 });
        return;
      }
      const group = groups.group(target.featureId);
      if (!group) return;
      if (group.members.length === 1) {
        prefetchPostCard(client, group.members[0]!.id);
        setSelection({ kind: 'post', id: group.members[0]!.id });
      } else
        setSelection({
          kind: 'group',
          ids: group.members.map((m) => m.id),
          latitude: group.latitude,
          longitude: group.longitude,
        });
    },
    [map, groups, client, setSelection],
  );
}

/**
 * Taps and hovers, hit-tested on the marker layers; answers the hovered marker's feature id.
 * `openedFrom` is cleared: a popup opened by a tap gives no focus back.
 */
export function useMarkerTaps(
  map: MapLibreMap | null,
  activate: Activate,
  setSelection: SetSelection,
  openedFrom: RefObject<string | null>,
): number | null {
  const [hovered, setHovered] = useState<number | null>(null);
  useEffect(() => {
    if (!map) return;
    const hit = (point: MapMouseEvent['point']): MapGeoJSONFeature | undefined => {
      const layers = CLICKABLE_LAYERS.filter((id) => map.getLayer(id));
      return layers.length ? map.queryRenderedFeatures(point, { layers })[0] : undefined;
    };
    const onClick = (event: MapMouseEvent) => {
      const feature = hit(event.point);
      if (!feature) {
        // A tap on the bare map closes the popup.
        setSelection(null);
        return;
      }
      event.preventDefault();
      const props = feature.properties as Partial<MarkerProps> & { cluster?: boolean; cluster_id?: number };
      const [longitude, latitude] = (feature.geometry as Point).coordinates as [number, number];
      openedFrom.current = null;
      if (props.cluster && typeof props.cluster_id === 'number')
        activate({ kind: 'cluster', clusterId: props.cluster_id }, longitude, latitude);
      else if (props.k === 's') activate({ kind: 'aggregate' }, longitude, latitude);
      else if (typeof feature.id === 'number') {
        // The popup paints first, the map's redraw for the tap's end after it.
        postponeRepaint(map);
        activate({ kind: 'group', featureId: feature.id }, longitude, latitude);
      }
    };
    const stopHover = trackHover(
      map,
      (point) => {
        const feature = hit(point);
        const id =
          feature &&
          typeof feature.id === 'number' &&
          !feature.properties?.cluster &&
          feature.source !== AGGREGATES_SOURCE
            ? feature.id
            : null;
        return { id, pointer: feature !== undefined };
      },
      setHovered,
    );
    map.on('click', onClick);
    const stopTapRepaints = postponeTapRepaints(map);
    return () => {
      stopTapRepaints();
      map.off('click', onClick);
      stopHover();
    };
  }, [map, activate, setSelection, openedFrom]);
  return hovered;
}
