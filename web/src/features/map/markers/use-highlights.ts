/** The selected, hovered and keyboard-focused markers are drawn larger. */
import { type RefObject, useEffect } from 'react';
import type { Map as MapLibreMap } from 'maplibre-gl';
import type { MarkerGroup, MarkerGroups } from './marker-groups.ts';
import { setHighlighted } from './marker-layers.ts';
import type { NavItem } from './nav-items.ts';
import { afterNextPaint } from '../after-paint.ts';
import type { Highlighted } from './use-marker-layers.ts';
import type { Selection } from './use-selection.ts';

export interface HighlightsInput {
  map: MapLibreMap | null;
  groups: MarkerGroups;
  /** The groups changed. */
  version: number;
  /** What is drawn larger now, shared with the layers (use-marker-layers.ts). */
  highlighted: RefObject<Highlighted>;
  selection: Selection | null;
  /** The hovered marker's feature id. */
  hovered: number | null;
  /** The marker button that holds the focus. */
  navFocus: NavItem | null;
}

export function useHighlights({
  map,
  groups,
  version,
  highlighted,
  selection,
  hovered,
  navFocus,
}: HighlightsInput): void {
  const selectedFeature =
    selection?.kind === 'post'
      ? groups.groupOf(selection.id)?.id
      : selection?.kind === 'group'
        ? groups.groupOf(selection.ids[0]!)?.id
        : undefined;
  const focusedFeature = navFocus?.target.kind === 'group' ? navFocus.target.featureId : undefined;
  useEffect(() => {
    if (!map) return;
    const ids = [
      ...new Set([selectedFeature, hovered, focusedFeature].filter((id): id is number => typeof id === 'number')),
    ];
    const next = ids.map((id) => groups.group(id)).filter((g): g is MarkerGroup => g !== undefined);
    // A group's id changes with what it draws (marker-groups.ts): equal ids, nothing to redraw.
    const key = next.map((g) => g.id).join(',');
    if (key === highlighted.current.key) return;
    // After the next frame: a tap's popup paints first, the map's redraw of the larger marker after.
    return afterNextPaint(() => {
      highlighted.current = { key, groups: next };
      setHighlighted(map, next);
    });
  }, [map, groups, selectedFeature, hovered, focusedFeature, version, highlighted]);
}
