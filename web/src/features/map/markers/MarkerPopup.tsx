/** The open popup: a post's card, or a 100 m group's list, anchored above its marker. */
import { type RefObject, Suspense } from 'react';
import { Popup } from 'react-map-gl/maplibre';
import type { MarkerDto } from '../../posts/for-map.ts';
import { POST_MARKER_SIZE } from './marker-images.ts';
import { PopupFallback } from './PopupFallback.tsx';
import { loadPopups } from './warm-up.ts';
import { lazyScreen } from '../../../ui/lazy-screen.tsx';
import type { Selected, Selection } from './use-selection.ts';

// A post's popup and a group's list show after a tap: their chunk is fetched once the markers are
// drawn (warm-up.ts) or by the first tap before that, not on the map's first load.
const PostPopup = lazyScreen(loadPopups, (m) => m.PostPopup);
const ClusterList = lazyScreen(loadPopups, (m) => m.ClusterList);

function popupAnchor(selection: Selection | null, marker: MarkerDto | undefined) {
  if (marker) return { latitude: marker.latitude, longitude: marker.longitude, offset: POST_MARKER_SIZE / 2 + 8 };
  return selection?.kind === 'group'
    ? { latitude: selection.latitude, longitude: selection.longitude, offset: 34 }
    : null;
}

export function MarkerPopup({
  selected: { selection, setSelection, selectedMarker, groupMarkers },
  offsetMs,
  openedFrom,
  showList,
}: {
  selected: Selected;
  /** The server's clock minus ours. */
  offsetMs: number;
  /** Cleared when the list view takes over: the focus goes there, not back to a marker. */
  openedFrom: RefObject<string | null>;
  showList: (options: { clusterIds: readonly string[]; focus: boolean }) => void;
}) {
  const anchor = popupAnchor(selection, selectedMarker);
  if (!anchor) return null;
  const now = new Date(Date.now() + offsetMs);
  return (
    <Popup
      longitude={anchor.longitude}
      latitude={anchor.latitude}
      anchor="bottom"
      offset={anchor.offset}
      closeButton={false}
      closeOnClick={false}
      focusAfterOpen={false}
      maxWidth="none"
      className="mm-popup"
      onClose={() => setSelection(null)}
    >
      <Suspense fallback={<PopupFallback marker={selectedMarker} />}>
        {selectedMarker ? (
          <PostPopup
            key={selectedMarker.id}
            marker={selectedMarker}
            now={now}
            onClose={() => setSelection(null)}
            onBack={
              selection?.kind === 'post' && selection.group && groupMarkers.length > 1
                ? () =>
                    setSelection({
                      kind: 'group',
                      ids: selection.group!,
                      latitude: anchor.latitude,
                      longitude: anchor.longitude,
                    })
                : undefined
            }
          />
        ) : (
          <ClusterList
            markers={groupMarkers}
            now={now}
            onPick={(m) => setSelection({ kind: 'post', id: m.id, group: groupMarkers.map((g) => g.id) })}
            onClose={() => setSelection(null)}
            onShowList={() => {
              openedFrom.current = null;
              showList({ clusterIds: groupMarkers.map((m) => m.id), focus: true });
              setSelection(null);
            }}
          />
        )}
      </Suspense>
    </Popup>
  );
}
