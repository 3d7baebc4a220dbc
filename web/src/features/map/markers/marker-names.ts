/**
 * What a screen reader hears of the markers, and the order they are reached in:
 * 'Publication de Léa, Joyeux, il y a 5 minutes' for a post, '12 publications ici' for a group,
 * nearest to the map's centre first, so Tab walks outwards from what the person is looking at.
 */
import { MOOD_INFO, SHELL_MESSAGES, fill, relativeTime } from '@moodmap/core';
import type { MarkerDto } from '../../posts/for-map.ts';
import { type GeoPoint, haversineMeters } from './grouping.ts';

export function markerName(marker: Pick<MarkerDto, 'nickname' | 'category' | 'createdAt'>, now: Date): string {
  return fill(SHELL_MESSAGES.marker_name, {
    nickname: marker.nickname,
    mood: MOOD_INFO[marker.category].label,
    time: relativeTime(marker.createdAt, now),
  });
}

export function groupName(count: number): string {
  return fill(SHELL_MESSAGES.marker_group_name, { count });
}

/** Ties at the same distance (a 100 m group's members) read north to south, then west to east. */
function readingTie(a: GeoPoint, b: GeoPoint): number {
  return b.latitude - a.latitude || a.longitude - b.longitude;
}

/** Nearest to `centre` first. */
export function byDistanceFrom<T extends GeoPoint>(items: readonly T[], centre: GeoPoint): T[] {
  return items
    .map((item) => ({ item, d: haversineMeters(centre, item) }))
    .sort((a, b) => a.d - b.d || readingTie(a.item, b.item))
    .map(({ item }) => item);
}

export type ListSort = 'distance' | 'time';

/** The list view's order: by distance from the map's centre, or newest first. */
export function sortPosts(markers: readonly MarkerDto[], sort: ListSort, centre: GeoPoint): MarkerDto[] {
  if (sort === 'distance') return byDistanceFrom(markers, centre);
  return [...markers].sort((a, b) => b.createdAt.localeCompare(a.createdAt) || a.id.localeCompare(b.id));
}
