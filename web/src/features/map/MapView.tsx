import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { AttributionControl, Map, Marker, type MapRef, type ViewStateChangeEvent } from 'react-map-gl/maplibre';
import { MAP, SHELL_MESSAGES } from '@moodmap/core';
import { useAppConfig } from '../../lib/config.ts';
import { useInteractionsRealtime } from '../posts/for-map.ts';
import { useThemeStore } from '../theme/theme-store.ts';
import { type StyleChoice, chooseStyle } from './map-style.ts';
import { exposeMap, useMapStore } from './map-store.ts';
import { initialView, saveView } from './map-view.ts';
import { PostMarkers } from './markers/PostMarkers.tsx';
import { track } from '../../lib/analytics.ts';
import { WORLD_MAP_PROPS, mapPixelRatio } from './world-map.ts';

/** A configured style that has not loaded after this long is treated as failed. */
const STYLE_TIMEOUT_MS = 10_000;

/** Where the map was left, kept for the next visit. */
function rememberView(event: ViewStateChangeEvent) {
  // A person's move (not the map's own fitting) counts as a map interaction (analytics).
  if (event.originalEvent) track('map_interaction');
  const { latitude, longitude, zoom } = event.viewState;
  saveView({ latitude, longitude, zoom });
}

/** The person's own position: a pulsing dot. */
function UserPositionMarker({ position }: { position: { latitude: number; longitude: number } }) {
  return (
    <Marker longitude={position.longitude} latitude={position.latitude} anchor="center">
      <span className="relative flex size-5" title={SHELL_MESSAGES.my_position}>
        <span className="absolute inline-flex size-full animate-locate-pulse rounded-full bg-brand-500/60" />
        <span className="relative inline-flex size-5 rounded-full border-[3px] border-white bg-brand-500 shadow-md" />
      </span>
    </Marker>
  );
}

/** The full-screen world map under every screen (docs/product.md, Map). */
export function MapView() {
  const { config } = useAppConfig();
  const theme = useThemeStore((s) => s.theme);
  const [failed, setFailed] = useState<ReadonlySet<string>>(() => new Set());
  const choice = useMemo(() => chooseStyle(theme, config, failed), [theme, config, failed]);
  const [initialChoice] = useState(choice);
  const [initialViewState] = useState(() => initialView());
  // The style that has fully loaded (sources included) and is on screen.
  const [applied, setApplied] = useState<{ key: string; theme: string } | null>(null);
  const mapRef = useRef<MapRef | null>(null);
  const setMap = useMapStore((s) => s.setMap);
  const userPosition = useMapStore((s) => s.userPosition);
  useInteractionsRealtime();

  // The style being shown, and whether its JSON has loaded ('style.load'): an error before that
  // means the style itself failed, and a configured one then falls back to the embedded basemap.
  const pending = useRef<{ choice: StyleChoice; styleSeen: boolean }>({ choice: initialChoice, styleSeen: false });

  const fail = useCallback((key: string) => {
    setFailed((prev) => (prev.has(key) ? prev : new Set(prev).add(key)));
  }, []);

  /** 'idle' means the style and its sources are loaded and drawn. */
  const checkApplied = useCallback(() => {
    const map = mapRef.current?.getMap();
    if (!map || !map.isStyleLoaded()) return;
    const { choice: c } = pending.current;
    pending.current.styleSeen = true;
    setApplied((prev) => (prev?.key === c.key && prev.theme === c.theme ? prev : { key: c.key, theme: c.theme }));
  }, []);

  // Switch style when the theme or the fallback changes (the first style is given at creation).
  useEffect(() => {
    const map = mapRef.current?.getMap();
    if (!map || pending.current.choice.key === choice.key) return;
    const previous = pending.current;
    pending.current = { choice, styleSeen: false };
    setApplied(null);
    if (choice.embedded && previous.choice.embedded && previous.styleSeen) {
      // Same sources and layers: a paint-only diff, without refetching the GeoJSON.
      map.setStyle(choice.style, { diff: true });
    } else {
      map.setStyle(choice.style, { diff: false });
    }
    map.triggerRepaint();
  }, [choice]);

  // A configured style must load in time, or we fall back to the embedded one.
  useEffect(() => {
    if (choice.embedded) return;
    const timer = setTimeout(() => {
      if (pending.current.choice.key === choice.key && !pending.current.styleSeen) fail(choice.key);
    }, STYLE_TIMEOUT_MS);
    return () => clearTimeout(timer);
  }, [choice, fail]);

  const attach = useCallback(
    (ref: MapRef | null) => {
      mapRef.current = ref;
      const map = ref?.getMap() ?? null;
      setMap(map);
      exposeMap(map);
      if (map) {
        map.on('style.load', () => {
          pending.current.styleSeen = true;
        });
        // A browser zoom changes the screen's pixel ratio: the map follows it, within its cap.
        map.on('resize', () => {
          const ratio = mapPixelRatio();
          if (map.getPixelRatio() !== ratio) map.setPixelRatio(ratio);
        });
        if (map.loaded()) checkApplied();
      }
    },
    [checkApplied, setMap],
  );

  useEffect(() => () => exposeMap(null), []);

  const onError = useCallback(
    (event: { error?: unknown }) => {
      const { choice: c, styleSeen } = pending.current;
      if (!c.embedded && !styleSeen) {
        console.warn('MoodMap: map style failed, using the embedded basemap', event.error);
        fail(c.key);
      }
    },
    [fail],
  );

  const loaded = applied !== null && applied.key === choice.key;

  return (
    <div
      className="absolute inset-0"
      data-testid="map-canvas"
      data-theme={applied?.theme ?? undefined}
      data-map-loaded={loaded ? 'true' : 'false'}
      data-basemap={choice.embedded ? 'embedded' : 'url'}
    >
      <Map
        ref={attach}
        {...WORLD_MAP_PROPS}
        initialViewState={initialViewState}
        mapStyle={initialChoice.style}
        maxPitch={MAP.maxPitch}
        onError={onError}
        onIdle={checkApplied}
        onMoveEnd={rememberView}
        style={{ position: 'absolute', inset: 0 }}
      >
        <AttributionControl position="bottom-left" compact />
        <PostMarkers />
        {userPosition ? <UserPositionMarker position={userPosition} /> : null}
      </Map>
    </div>
  );
}
