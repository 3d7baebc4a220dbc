/**
 * What the map draws for a set of posts and a viewport.
 *
 * Two levels (design.md §2 "clustering"):
 * 1. the exact 100 m groups of spec §2 (grouping.ts): a group of one is a single marker, a
 *    larger one a cluster marker (#0CC0DF, count, popup 'Annonces dans cette zone');
 * 2. zoomed out (below AGGREGATE_BELOW_ZOOM), groups close on screen aggregate further with
 *    supercluster (60 px), clicking one zooms in.
 * Only what lies in the viewport is returned, and never more than MAX_MARKERS DOM markers, so
 * 100 000 live posts stay smooth.
 */
import Supercluster from 'supercluster';
import { groupWithinRadius, type Group } from './grouping.ts';
import type { PostDto } from '../../posts/post-types.ts';

/** Below this zoom, nearby groups aggregate into supercluster bubbles. */
export const AGGREGATE_BELOW_ZOOM = 9;
export const AGGREGATE_RADIUS_PX = 60;
/** Safety valve: a viewport holding more groups than this is drawn aggregated whatever the zoom. */
export const MAX_MARKERS = 400;

export type MarkerItem =
  | { kind: 'post'; key: string; latitude: number; longitude: number; post: PostDto }
  | { kind: 'group'; key: string; latitude: number; longitude: number; posts: PostDto[] }
  | { kind: 'aggregate'; key: string; latitude: number; longitude: number; count: number; clusterId: number };

interface GroupProps {
  g: number;
  n: number;
}

export interface MarkerIndex {
  groups: Group<PostDto>[];
  /** Markers for a bounding box [west, south, east, north] at a zoom. */
  query(bbox: [number, number, number, number], zoom: number): MarkerItem[];
  /** The zoom at which an aggregate splits (to zoom in on click). */
  expansionZoom(clusterId: number): number;
  /** Which group holds a post. */
  groupOf(postId: string): Group<PostDto> | undefined;
}

function groupKey(group: Group<PostDto>): string {
  // Stable across refetches while membership is unchanged: the oldest post names the group.
  return group.items.length === 1 ? group.items[0]!.id : `g:${group.items.map((p) => p.id).sort()[0]}:${group.items.length}`;
}

export function buildMarkerIndex(posts: readonly PostDto[]): MarkerIndex {
  const groups = groupWithinRadius(posts);
  // Newest first inside a cluster list.
  for (const group of groups) group.items.sort((a, b) => b.createdAt.localeCompare(a.createdAt));
  const byPost = new Map<string, Group<PostDto>>();
  for (const group of groups) for (const post of group.items) byPost.set(post.id, group);

  const index = new Supercluster<GroupProps, { n: number }>({
    radius: AGGREGATE_RADIUS_PX,
    maxZoom: AGGREGATE_BELOW_ZOOM - 1,
    map: (props) => ({ n: props.n }),
    reduce: (acc, props) => {
      acc.n += props.n;
    },
  });
  index.load(
    groups.map((group, g) => ({
      type: 'Feature' as const,
      geometry: { type: 'Point' as const, coordinates: [group.longitude, group.latitude] },
      properties: { g, n: group.items.length },
    })),
  );

  const toItems = (features: ReturnType<typeof index.getClusters>): MarkerItem[] =>
    features.map((feature) => {
      const [longitude, latitude] = feature.geometry.coordinates as [number, number];
      const props = feature.properties as Partial<GroupProps> & { cluster?: boolean; cluster_id?: number; n: number };
      if (props.cluster && typeof props.cluster_id === 'number') {
        return { kind: 'aggregate', key: `a:${props.cluster_id}`, latitude, longitude, count: props.n, clusterId: props.cluster_id };
      }
      const group = groups[props.g!]!;
      if (group.items.length === 1) return { kind: 'post', key: group.items[0]!.id, latitude, longitude, post: group.items[0]! };
      return { kind: 'group', key: groupKey(group), latitude, longitude, posts: group.items };
    });

  return {
    groups,
    query(bbox, zoom) {
      const z = Math.floor(zoom);
      if (z < AGGREGATE_BELOW_ZOOM) return toItems(index.getClusters(bbox, z));
      const items = toItems(index.getClusters(bbox, AGGREGATE_BELOW_ZOOM));
      return items.length <= MAX_MARKERS ? items : toItems(index.getClusters(bbox, AGGREGATE_BELOW_ZOOM - 1));
    },
    expansionZoom(clusterId) {
      try {
        return index.getClusterExpansionZoom(clusterId);
      } catch {
        return AGGREGATE_BELOW_ZOOM;
      }
    },
    groupOf: (postId) => byPost.get(postId),
  };
}
