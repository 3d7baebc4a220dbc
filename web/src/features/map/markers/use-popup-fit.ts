/** Paint first, then move the camera only if the popup does not fit (popup-fit.ts). */
import { useEffect } from 'react';
import type { Map as MapLibreMap } from 'maplibre-gl';
import { fitPopup, revealPopup } from './popup-fit.ts';
import type { Selection } from './use-selection.ts';

export function usePopupFit(map: MapLibreMap | null, selection: Selection | null): void {
  // Fitted again only when another post or list opens.
  const selectionKey = selection ? (selection.kind === 'post' ? selection.id : selection.ids.join(',')) : null;
  useEffect(() => {
    if (!map || !selectionKey) return;
    return fitPopup(map.getContainer().querySelector('.mm-popup'), () => revealPopup(map));
  }, [map, selectionKey]);
}
