/**
 * The markers a keyboard reaches (issue 20 item 2): those on screen, as the eye sees them. From
 * zoom 9 the 100 m groups are read from our own data (a post or a group whose point is inside the
 * view); below, MapLibre's worker clusters them, so its drawn clusters are read from the layer,
 * and the server's zoomed-out aggregates likewise. Nearest to the centre first, at most
 * `MAX_FOCUSABLE_MARKERS`: the rest are one 'N autres publications dans la liste' away.
 */
import type { Map as MapLibreMap } from 'maplibre-gl';
import type { Point } from 'geojson';
import type { MarkerGroups } from './marker-groups.ts';
import { AGGREGATES_LAYER, AGGREGATE_BELOW_ZOOM, MARKERS_LAYER } from './marker-layers.ts';
import { byDistanceFrom, groupName, markerName } from './marker-names.ts';

export const MAX_FOCUSABLE_MARKERS = 50;

export type NavTarget =
  /** One of our 100 m groups (a single post is a group of one): opens its card or its list. */
  | { kind: 'group'; featureId: number }
  /** A MapLibre cluster: zooms in to split it. */
  | { kind: 'cluster'; clusterId: number }
  /** A server aggregate: zooms in. */
  | { kind: 'aggregate' };

export interface NavItem {
  /** Stable across redraws: the post id, or the group's newest post, or the cluster. */
  key: string;
  name: string;
  latitude: number;
  longitude: number;
  /** Posts it stands for. */
  count: number;
  postId?: string;
  target: NavTarget;
}

export function readNavItems(map: MapLibreMap, groups: MarkerGroups, now: Date): NavItem[] {
  const items: NavItem[] = [];
  const bounds = map.getBounds();
  if (map.getZoom() >= AGGREGATE_BELOW_ZOOM) {
    const [west, south, east, north] = [bounds.getWest(), bounds.getSouth(), bounds.getEast(), bounds.getNorth()];
    const candidates = west >= -180 && east <= 180 ? groups.groupsIn(west, south, east, north) : groups.allGroups();
    for (const group of candidates) {
      if (!bounds.contains([group.longitude, group.latitude])) continue;
      const first = group.members[0]!;
      const single = group.members.length === 1;
      items.push({
        key: single ? `p:${first.id}` : `g:${first.id}`,
        name: single ? markerName(first, now) : groupName(group.members.length),
        latitude: group.latitude,
        longitude: group.longitude,
        count: group.members.length,
        postId: single ? first.id : undefined,
        target: { kind: 'group', featureId: group.id },
      });
    }
  }
  const layers = [AGGREGATES_LAYER, ...(map.getZoom() < AGGREGATE_BELOW_ZOOM ? [MARKERS_LAYER] : [])].filter((id) => map.getLayer(id));
  const seen = new Set<string>();
  for (const feature of layers.length ? map.queryRenderedFeatures({ layers }) : []) {
    const [longitude, latitude] = (feature.geometry as Point).coordinates as [number, number];
    if (!bounds.contains([longitude, latitude])) continue;
    const p = feature.properties as { k?: string; n?: number; pid?: string; cluster?: boolean; cluster_id?: number; point_count?: number };
    const count = Number(p.n ?? p.point_count ?? 1);
    let item: NavItem | null = null;
    if (p.cluster && typeof p.cluster_id === 'number') {
      item = { key: `c:${p.cluster_id}`, name: groupName(count), latitude, longitude, count, target: { kind: 'cluster', clusterId: p.cluster_id } };
    } else if (p.k === 's') {
      item = { key: `s:${p.pid ?? `${longitude},${latitude}`}`, name: groupName(count), latitude, longitude, count, target: { kind: 'aggregate' } };
    } else if (typeof feature.id === 'number') {
      const group = groups.group(feature.id);
      const first = group?.members[0];
      if (group && first) {
        const single = group.members.length === 1;
        item = {
          key: single ? `p:${first.id}` : `g:${first.id}`,
          name: single ? markerName(first, now) : groupName(group.members.length),
          latitude,
          longitude,
          count: group.members.length,
          postId: single ? first.id : undefined,
          target: { kind: 'group', featureId: group.id },
        };
      }
    }
    // A feature is returned once per tile it touches.
    if (item && !seen.has(item.key)) {
      seen.add(item.key);
      items.push(item);
    }
  }
  const centre = map.getCenter();
  return byDistanceFrom(items, { latitude: centre.lat, longitude: centre.lng });
}

/** Posts beyond the focusable ones. */
export function postsBeyond(items: readonly NavItem[], max = MAX_FOCUSABLE_MARKERS): number {
  return items.slice(max).reduce((n, item) => n + item.count, 0);
}
