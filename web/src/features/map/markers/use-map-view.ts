/** The map's view as the viewport feed asks for it: padded, and read once the map stops moving. */
import { useEffect, useState } from 'react';
import type { Map as MapLibreMap } from 'maplibre-gl';
import { padBounds, VIEW_MARGIN } from '@moodmap/core';

type Bbox = [number, number, number, number];

export interface MapViewBox {
  bbox: Bbox;
  zoom: number;
}

/** The view is read this long after the map stops moving. */
const VIEW_DEBOUNCE_MS = 250;

/** The viewport with a margin, so markers just outside are already there when panning. */
export function paddedBounds(map: Pick<MapLibreMap, 'getBounds'>, margin = VIEW_MARGIN): Bbox {
  const b = map.getBounds();
  return padBounds([b.getWest(), b.getSouth(), b.getEast(), b.getNorth()], margin);
}

export function useMapView(map: MapLibreMap | null): MapViewBox | null {
  const [view, setView] = useState<MapViewBox | null>(null);
  useEffect(() => {
    if (!map) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const read = () => setView({ bbox: paddedBounds(map), zoom: map.getZoom() });
    const update = () => {
      clearTimeout(timer);
      timer = setTimeout(read, VIEW_DEBOUNCE_MS);
    };
    read();
    map.on('moveend', update);
    map.on('resize', update);
    return () => {
      clearTimeout(timer);
      map.off('moveend', update);
      map.off('resize', update);
    };
  }, [map]);
  return view;
}
