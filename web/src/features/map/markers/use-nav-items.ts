/** The markers a keyboard reaches through MarkerNav (nav-items.ts), and what their buttons do. */
import { type RefObject, useCallback, useEffect, useState } from 'react';
import type { Map as MapLibreMap } from 'maplibre-gl';
import type { ServerCluster } from '../../posts/for-map.ts';
import type { MarkerGroups } from './marker-groups.ts';
import { AGGREGATES_SOURCE, MARKERS_SOURCE } from './marker-layers.ts';
import { type NavItem, readNavItems, sameNavItems } from './nav-items.ts';
import type { Activate } from './use-marker-taps.ts';

export interface NavItemsInput {
  map: MapLibreMap | null;
  groups: MarkerGroups;
  /** The groups changed. */
  version: number;
  offsetMs: number;
  shownClusters: readonly ServerCluster[];
}

/**
 * Read again when the view or the drawn posts change, once MapLibre has placed them (its
 * clusters are read from what it draws).
 */
export function useNavItems({ map, groups, version, offsetMs, shownClusters }: NavItemsInput): NavItem[] {
  const [navItems, setNavItems] = useState<NavItem[]>([]);
  useEffect(() => {
    if (!map) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const read = () => {
      if (map.isMoving()) return schedule();
      const next = readNavItems(map, groups, shownClusters, new Date(Date.now() + offsetMs));
      // The same items (a post added off screen, a tile reloaded): no re-render of the buttons.
      setNavItems((current) => (sameNavItems(current, next) ? current : next));
    };
    const schedule = () => {
      clearTimeout(timer);
      timer = setTimeout(read, 300);
    };
    const onData = (event: { sourceId?: string }) => {
      if (event.sourceId === MARKERS_SOURCE || event.sourceId === AGGREGATES_SOURCE) schedule();
    };
    schedule();
    map.on('moveend', schedule);
    map.on('sourcedata', onData);
    return () => {
      clearTimeout(timer);
      map.off('moveend', schedule);
      map.off('sourcedata', onData);
    };
  }, [map, groups, version, offsetMs, shownClusters]);
  return navItems;
}

/**
 * MarkerNav's callbacks, stable while their inputs are (it is memoised), and its focused item.
 * A group's popup opened by Enter gives the focus back to its button (`openedFrom`).
 */
export function useNavActions(
  map: MapLibreMap | null,
  activate: Activate,
  openedFrom: RefObject<string | null>,
  showList: (options: { focus: boolean }) => void,
) {
  const project = useCallback(
    (item: NavItem) => (map ? map.project([item.longitude, item.latitude]) : { x: 0, y: 0 }),
    [map],
  );
  const onActivate = useCallback(
    (item: NavItem) => {
      openedFrom.current = item.target.kind === 'group' ? item.key : null;
      activate(item.target, item.longitude, item.latitude);
    },
    [activate, openedFrom],
  );
  const onMore = useCallback(() => showList({ focus: true }), [showList]);
  const [focused, onFocusItem] = useState<NavItem | null>(null);
  return { project, onActivate, onFocusItem, onMore, focused };
}
