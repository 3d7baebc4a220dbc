/**
 * The create page's location picker: a small map in the same
 * basemap as the main map, opening on its default centre (Paris, zoom 2) with its
 * initial pick (Saint-Denis, La Réunion) pinned; a click or a drag of the pin moves it. A place
 * search above it flies the map to a town and puts the pin there, to be refined by a tap.
 * Loaded lazily: MapLibre stays out of the main bundle.
 */
import { type RefObject, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Map, Marker, NavigationControl, type MapLayerMouseEvent, type MapRef } from 'react-map-gl/maplibre';
import { MAP, MESSAGES, TIMING, type PlaceDto } from '@moodmap/core';
import { useAppConfig } from '../../../lib/config.ts';
import { Spinner } from '../../../ui/Button.tsx';
import { LocateIcon } from '../../../ui/icons.tsx';
import { moveCamera } from '../../../ui/motion.ts';
import { toast } from '../../../ui/toasts/toast-store.ts';
import { geolocationErrorMessage } from '../../map/geolocation.ts';
import { chooseStyle } from '../../map/map-style.ts';
import { WORLD_MAP_PROPS } from '../../map/world-map.ts';
import { PlaceSearch } from '../../search/PlaceSearch.tsx';
import { flyToPlace } from '../../search/fly-to-place.ts';
import { useThemeStore } from '../../theme/theme-store.ts';

declare global {
  interface Window {
    /** The picker's MapLibre map, read-only: the journeys' hook, as `__MOODMAP_MAP__` is the main map's. */
    readonly __MOODMAP_PICKER_MAP__?: import('maplibre-gl').Map;
  }
}

export interface PickedLocation {
  latitude: number;
  longitude: number;
}

/** Puts the pin where the user is (same timeout and age as "locate me"), and the map there. */
function useMyPosition(mapRef: RefObject<MapRef | null>, onChange: (location: PickedLocation) => void) {
  const [locating, setLocating] = useState(false);
  const pickMyPosition = () => {
    if (locating) return;
    if (typeof navigator === 'undefined' || !('geolocation' in navigator)) {
      toast.error(MESSAGES.geo_unsupported, { duration: TIMING.geolocationErrorMs });
      return;
    }
    setLocating(true);
    navigator.geolocation.getCurrentPosition(
      ({ coords }) => {
        setLocating(false);
        const picked = { latitude: round(coords.latitude), longitude: round(coords.longitude) };
        onChange(picked);
        const map = mapRef.current?.getMap();
        if (map) moveCamera(map, { center: [picked.longitude, picked.latitude], zoom: MAP.flyToZoom });
      },
      (error) => {
        setLocating(false);
        toast.error(geolocationErrorMessage(error), { duration: TIMING.geolocationErrorMs });
      },
      { enableHighAccuracy: true, timeout: MAP.locateTimeoutMs, maximumAge: MAP.locateMaxAgeMs },
    );
  };
  return { locating, pickMyPosition };
}

/** The picked place's pin, in `ringColor`. */
function PickedPin({ ringColor }: { ringColor: string }) {
  return (
    <span className="flex flex-col items-center" data-testid="location-pin" title={MESSAGES.create_location_label}>
      <svg width="34" height="44" viewBox="0 0 34 44" aria-hidden="true" className="drop-shadow-lg">
        <path
          d="M17 1C8.2 1 1 8 1 16.7 1 28.4 17 43 17 43s16-14.6 16-26.3C33 8 25.8 1 17 1Z"
          fill={ringColor}
          stroke="#fff"
          strokeWidth="2"
        />
        <circle cx="17" cy="16.5" r="6" fill="#fff" />
      </svg>
    </span>
  );
}

export default function LocationPicker({
  value,
  onChange,
  ringColor,
}: {
  value: PickedLocation | null;
  onChange: (location: PickedLocation) => void;
  ringColor: string;
}) {
  const { config } = useAppConfig();
  const theme = useThemeStore((s) => s.theme);
  const [failed, setFailed] = useState<ReadonlySet<string>>(() => new Set());
  const choice = useMemo(() => chooseStyle(theme, config, failed), [theme, config, failed]);
  const styleSeen = useRef(false);
  const mapRef = useRef<MapRef | null>(null);
  const [loaded, setLoaded] = useState(false);
  const { locating, pickMyPosition } = useMyPosition(mapRef, onChange);

  const pick = useCallback(
    (event: MapLayerMouseEvent) => onChange({ latitude: round(event.lngLat.lat), longitude: round(event.lngLat.lng) }),
    [onChange],
  );

  const goToPlace = (place: PlaceDto) => {
    onChange({ latitude: round(place.latitude), longitude: round(place.longitude) });
    const map = mapRef.current?.getMap();
    if (map) flyToPlace(map, place);
  };

  const onLoad = useCallback(() => {
    setLoaded(true);
    styleSeen.current = true;
    const map = mapRef.current?.getMap();
    if (map)
      Object.defineProperty(window, '__MOODMAP_PICKER_MAP__', {
        value: map,
        configurable: true,
        enumerable: false,
        writable: false,
      });
    // The picker's default centre is Paris while the initial pick is La Réunion: keep the pin in view.
    if (map && value && !map.getBounds().contains([value.longitude, value.latitude])) {
      map.jumpTo({ center: [value.longitude, value.latitude] });
    }
  }, [value]);

  useEffect(() => () => void delete (window as { __MOODMAP_PICKER_MAP__?: unknown }).__MOODMAP_PICKER_MAP__, []);

  return (
    <div className="space-y-2">
      <PlaceSearch onPick={goToPlace} />
      <div
        className="relative h-64 overflow-hidden rounded-2xl ring-1 ring-slate-200 md:h-72 dark:ring-white/10"
        data-testid="location-picker"
        data-map-loaded={loaded ? 'true' : 'false'}
        data-latitude={value?.latitude}
        data-longitude={value?.longitude}
      >
        <Map
          ref={mapRef}
          {...WORLD_MAP_PROPS}
          initialViewState={{
            latitude: MAP.pickerCentre.latitude,
            longitude: MAP.pickerCentre.longitude,
            zoom: MAP.pickerCentre.zoom,
          }}
          mapStyle={choice.style}
          dragRotate={false}
          pitchWithRotate={false}
          touchPitch={false}
          cursor="crosshair"
          onClick={pick}
          onLoad={onLoad}
          onError={() => {
            if (!choice.embedded && !styleSeen.current) setFailed((prev) => new Set(prev).add(choice.key));
          }}
          style={{ position: 'absolute', inset: 0 }}
        >
          <NavigationControl position="top-right" showCompass={false} />
          {value ? (
            <Marker
              longitude={value.longitude}
              latitude={value.latitude}
              anchor="bottom"
              draggable
              onDragEnd={(event) => onChange({ latitude: round(event.lngLat.lat), longitude: round(event.lngLat.lng) })}
            >
              <PickedPin ringColor={ringColor} />
            </Marker>
          ) : null}
        </Map>
        <button
          type="button"
          onClick={pickMyPosition}
          aria-busy={locating}
          data-testid="picker-locate"
          className="glass absolute bottom-2.5 left-2.5 inline-flex h-9 items-center gap-1.5 rounded-xl px-3 text-xs font-semibold text-ink-800 transition hover:text-brand-700 dark:text-slate-100 dark:hover:text-brand-300"
        >
          {locating ? <Spinner className="size-3.5" /> : <LocateIcon size={16} />}
          {MESSAGES.create_use_my_position}
        </button>
      </div>
    </div>
  );
}

/** Six decimals (~10 cm) are plenty; the land cache rounds to four. */
function round(value: number): number {
  return Math.round(value * 1e6) / 1e6;
}
