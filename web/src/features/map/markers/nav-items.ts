/**
 * The markers a keyboard reaches: those on screen, as the eye sees them. From
 * zoom 9 the 100 m groups are read from our own data (a post or a group whose point is inside the
 * view); below, MapLibre's worker clusters them, so its drawn clusters are read from the layer.
 * The server's zoomed-out aggregates are our data too (what the aggregates source draws): reading
 * them from the layer would cost a rendered-feature query of the view on every new post, on the
 * main thread, even where none is drawn. Nearest to the centre
 * first, at most `MAX_FOCUSABLE_MARKERS`: the rest are one 'N autres publications dans la liste' away.
 */
import type { Map as MapLibreMap } from 'maplibre-gl';
import type { Point } from 'geojson';
import type { ServerCluster } from '../../posts/for-map.ts';
import type { MarkerGroup, MarkerGroups } from './marker-groups.ts';
import { AGGREGATE_BELOW_ZOOM, MARKERS_LAYER } from './marker-layers.ts';
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

/** A 100 m group's item: a single post by its name, a larger group by its count. */
function groupItem(group: MarkerGroup, now: Date): NavItem {
  const first = group.members[0]!;
  const single = group.members.length === 1;
  return {
    key: single ? `p:${first.id}` : `g:${first.id}`,
    name: single ? markerName(first, now) : groupName(group.members.length),
    latitude: group.latitude,
    longitude: group.longitude,
    count: group.members.length,
    postId: single ? first.id : undefined,
    target: { kind: 'group', featureId: group.id },
  };
}

/** `aggregates`: the server aggregates the map draws (the aggregates source's data). */
export function readNavItems(
  map: MapLibreMap,
  groups: MarkerGroups,
  aggregates: readonly ServerCluster[],
  now: Date,
): NavItem[] {
  const items: NavItem[] = [];
  const bounds = map.getBounds();
  for (const c of aggregates) {
    if (!bounds.contains([c.longitude, c.latitude])) continue;
    items.push({
      key: `s:${c.id}`,
      name: groupName(c.count),
      latitude: c.latitude,
      longitude: c.longitude,
      count: c.count,
      target: { kind: 'aggregate' },
    });
  }
  if (map.getZoom() >= AGGREGATE_BELOW_ZOOM) {
    const [west, south, east, north] = [bounds.getWest(), bounds.getSouth(), bounds.getEast(), bounds.getNorth()];
    const candidates = west >= -180 && east <= 180 ? groups.groupsIn(west, south, east, north) : groups.allGroups();
    for (const group of candidates)
      if (bounds.contains([group.longitude, group.latitude])) items.push(groupItem(group, now));
  } else if (map.getLayer(MARKERS_LAYER)) {
    // Below zoom 9 MapLibre's worker clusters the groups: what it draws is read from the layer.
    const seen = new Set<string>();
    for (const feature of map.queryRenderedFeatures({ layers: [MARKERS_LAYER] })) {
      const [longitude, latitude] = (feature.geometry as Point).coordinates as [number, number];
      if (!bounds.contains([longitude, latitude])) continue;
      const p = feature.properties as { n?: number; cluster?: boolean; cluster_id?: number; point_count?: number };
      const count = Number(p.n ?? p.point_count ?? 1);
      const group = typeof feature.id === 'number' ? groups.group(feature.id) : undefined;
      const item: NavItem | null =
        p.cluster && typeof p.cluster_id === 'number'
          ? {
              key: `c:${p.cluster_id}`,
              name: groupName(count),
              latitude,
              longitude,
              count,
              target: { kind: 'cluster', clusterId: p.cluster_id },
            }
          : group
            ? groupItem(group, now)
            : null;
      // A feature is returned once per tile it touches.
      if (item && !seen.has(item.key)) {
        seen.add(item.key);
        items.push(item);
      }
    }
  }
  const centre = map.getCenter();
  return byDistanceFrom(items, { latitude: centre.lat, longitude: centre.lng });
}

/** Posts beyond the focusable ones. */
export function postsBeyond(items: readonly NavItem[], max = MAX_FOCUSABLE_MARKERS): number {
  return items.slice(max).reduce((n, item) => n + item.count, 0);
}

/** Whether two readings name the same markers at the same places, in the same order. */
export function sameNavItems(a: readonly NavItem[], b: readonly NavItem[]): boolean {
  return (
    a.length === b.length &&
    a.every((item, i) => {
      const other = b[i]!;
      return (
        item.key === other.key &&
        item.name === other.name &&
        item.count === other.count &&
        item.latitude === other.latitude &&
        item.longitude === other.longitude &&
        sameTarget(item.target, other.target)
      );
    })
  );
}

function sameTarget(a: NavTarget, b: NavTarget): boolean {
  if (a.kind === 'group') return b.kind === 'group' && a.featureId === b.featureId;
  if (a.kind === 'cluster') return b.kind === 'cluster' && a.clusterId === b.clusterId;
  return b.kind === 'aggregate';
}
