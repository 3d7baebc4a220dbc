/**
 * The posts on the main map, drawn by MapLibre (docs/architecture.md, "The map's markers"):
 * single markers, 100 m clusters and zoomed-out aggregates are features of GeoJSON sources
 * (marker-layers.ts, set up by use-marker-layers.ts) with pictures from an atlas drawn on demand
 * (marker-images.ts); no DOM element per post. The view is read once the map stops moving
 * (use-map-view.ts). A fetched viewport answer replaces the groups; realtime posts and deletions
 * wait in a queue and are drawn in batches, each one diff of the groups it touches, and posts
 * leave after their 24 h (use-drawn-groups.ts, live-updates.ts, marker-groups.ts). A tap is
 * hit-tested on the layers (use-marker-taps.ts); the popup (MarkerPopup.tsx, use-selection.ts)
 * paints first from the marker, and the map moves after only if it does not fit (use-popup-fit.ts).
 * A post passed through navigation state is centred at zoom 16 and opened, then the state cleared
 * (use-focus-post.ts). Keyboards and screen readers reach the markers through MarkerNav
 * (use-nav-items.ts): a button per marker on screen; Enter opens the same popup as a tap, takes
 * the focus into it, and closing it gives the focus back to the marker (use-popup-focus.ts). The
 * selected, hovered and focused markers are drawn larger (use-highlights.ts). Camera moves jump
 * instead when motion is reduced (ui/motion.ts).
 */
import { useEffect, useRef, useState } from 'react';
import { useMap } from 'react-map-gl/maplibre';
import { SHELL_MESSAGES } from '@moodmap/core';
import { toast } from '../../../ui/toasts/toast-store.ts';
import { useMoodFilterStore } from '../../moods/mood-filter-store.ts';
import { useViewportFeed } from '../../posts/for-map.ts';
import { MarkerNav } from './MarkerNav.tsx';
import { MarkerPopup } from './MarkerPopup.tsx';
import { MarkerGroups } from './marker-groups.ts';
import { useMapView } from './use-map-view.ts';
import { useAggregates, useMarkerLayers, useShownClusters } from './use-marker-layers.ts';
import { useDrawnGroups } from './use-drawn-groups.ts';
import { usePopupClosing, useSelection } from './use-selection.ts';
import { useActivate, useMarkerTaps } from './use-marker-taps.ts';
import { useFocusPost } from './use-focus-post.ts';
import { useListPosts } from './use-list-posts.ts';
import { useNavActions, useNavItems } from './use-nav-items.ts';
import { useHighlights } from './use-highlights.ts';
import { usePopupFocus } from './use-popup-focus.ts';
import { usePopupFit } from './use-popup-fit.ts';
import './markers.css';

// Effects run in the order of these calls, the order they need: the layers before the answer
// drawn on them, the popup's closing after the focused post's opening.
export function PostMarkers() {
  const { current } = useMap();
  const map = current?.getMap() ?? null;
  const moods = useMoodFilterStore((s) => s.selected);
  const view = useMapView(map);
  const feed = useViewportFeed(view, moods);
  const { offsetMs, isError, isPending } = feed;
  const shownClusters = useShownClusters(feed.clusters, moods);
  const [groups] = useState(() => new MarkerGroups());
  const highlighted = useMarkerLayers(map, groups, shownClusters);
  const { live, version, redraw } = useDrawnGroups(map, groups, feed, moods);
  useAggregates(map, shownClusters);

  // Feed failures are said once per failure streak.
  useEffect(() => {
    if (isError) toast.error(SHELL_MESSAGES.feed_load_error);
  }, [isError]);

  const selected = useSelection(groups, version);
  const { selection, setSelection } = selected;
  /** The marker button a popup was opened from by keyboard: the focus goes back to it. */
  const openedFrom = useRef<string | null>(null);
  const activate = useActivate(map, groups, setSelection);
  const hovered = useMarkerTaps(map, activate, setSelection, openedFrom);
  useFocusPost({ map, groups, live, version, redraw, isPending, setSelection });
  usePopupClosing(selected);
  const { listOpen, showList } = useListPosts(groups, version, offsetMs);
  const navItems = useNavItems({ map, groups, version, offsetMs, shownClusters });
  const navActions = useNavActions(map, activate, openedFrom, showList);
  useHighlights({ map, groups, version, highlighted, selection, hovered, navFocus: navActions.focused });
  usePopupFocus(map, selection, openedFrom);
  usePopupFit(map, selection);

  const nav = listOpen ? null : (
    <MarkerNav
      items={navItems}
      project={navActions.project}
      onActivate={navActions.onActivate}
      onFocusItem={navActions.onFocusItem}
      onMore={navActions.onMore}
    />
  );
  if (!selection || selected.popupGone) return nav;
  return (
    <>
      {nav}
      <MarkerPopup selected={selected} offsetMs={offsetMs} openedFrom={openedFrom} showList={showList} />
    </>
  );
}
