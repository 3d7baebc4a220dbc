/** Moving a map to a place found by the search, at the zoom its size calls for (the server's `zoom`). */
import { useCallback } from 'react';
import { useLocation, useNavigate } from 'react-router';
import type { Map as MapLibreMap } from 'maplibre-gl';
import type { PlaceDto } from '@moodmap/core';
import { useMapStore } from '../map/map-store.ts';
import { saveView } from '../map/map-view.ts';
import { moveCamera } from '../../ui/motion.ts';

export type PlaceTarget = Pick<PlaceDto, 'latitude' | 'longitude' | 'zoom'>;

export function flyToPlace(map: Pick<MapLibreMap, 'flyTo' | 'easeTo' | 'jumpTo'>, place: PlaceTarget): void {
  // A jump instead of a flight when motion is reduced.
  moveCamera(map, { center: [place.longitude, place.latitude], zoom: place.zoom });
}

/** The top bar's pick: back to the map screen, which flies there (or opens there when not drawn yet). */
export function useFlyMainMapToPlace() {
  const navigate = useNavigate();
  const { pathname } = useLocation();
  return useCallback(
    (place: PlaceTarget) => {
      if (pathname !== '/') void navigate('/');
      const map = useMapStore.getState().map;
      if (map) flyToPlace(map, place);
      else saveView({ latitude: place.latitude, longitude: place.longitude, zoom: place.zoom });
    },
    [navigate, pathname],
  );
}
