/** The map's visible bounds and centre, read again each time the camera stops. */
import { useEffect, useState } from 'react';
import type { Map as MapLibreMap } from 'maplibre-gl';

export interface ViewBounds {
  west: number;
  south: number;
  east: number;
  north: number;
  centre: { latitude: number; longitude: number };
}

function read(map: MapLibreMap): ViewBounds {
  const b = map.getBounds();
  const c = map.getCenter();
  return {
    west: b.getWest(),
    south: b.getSouth(),
    east: b.getEast(),
    north: b.getNorth(),
    centre: { latitude: c.lat, longitude: c.lng },
  };
}

/** Whether a point is inside the bounds (a view across ±180° has west > east once wrapped). */
export function inView(bounds: ViewBounds, point: { latitude: number; longitude: number }): boolean {
  if (point.latitude < bounds.south || point.latitude > bounds.north) return false;
  if (bounds.east - bounds.west >= 360) return true;
  const wrap = (lon: number) => ((((lon + 180) % 360) + 360) % 360) - 180;
  const west = wrap(bounds.west);
  const east = wrap(bounds.east);
  const lon = wrap(point.longitude);
  return west <= east ? lon >= west && lon <= east : lon >= west || lon <= east;
}

export function useViewBounds(map: MapLibreMap | null): ViewBounds | null {
  const [bounds, setBounds] = useState<ViewBounds | null>(() => (map ? read(map) : null));
  useEffect(() => {
    if (!map) return;
    const update = () => setBounds(read(map));
    update();
    map.on('moveend', update);
    map.on('resize', update);
    return () => {
      map.off('moveend', update);
      map.off('resize', update);
    };
  }, [map]);
  return bounds;
}
