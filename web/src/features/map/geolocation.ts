import { MAP, SHELL_MESSAGES, TIMING } from '@moodmap/core';
import { moveCamera } from '../../ui/motion.ts';
import { toast } from '../../ui/toasts/toast-store.ts';
import { useMapStore } from './map-store.ts';

/** GeolocationPositionError codes: 1 permission denied, 2 position unavailable, 3 timeout. */
const GEO_ERRORS: Partial<Record<number, string>> = {
  1: SHELL_MESSAGES.geo_denied,
  2: SHELL_MESSAGES.geo_unavailable,
  3: SHELL_MESSAGES.geo_timeout,
};

/** The French text for a failed position request. */
export function geolocationErrorMessage(error: Pick<GeolocationPositionError, 'code'> | null): string {
  return (error ? GEO_ERRORS[error.code] : undefined) ?? SHELL_MESSAGES.geo_other;
}

/** "Locate me": asks the position (10 s timeout, 60 s max age) and flies there at zoom 15. */
export function locateMe(): Promise<boolean> {
  const showError = (message: string) => toast.error(message, { duration: TIMING.geolocationErrorMs });
  if (typeof navigator === 'undefined' || !('geolocation' in navigator)) {
    showError(SHELL_MESSAGES.geo_unsupported);
    return Promise.resolve(false);
  }
  return new Promise((resolve) => {
    navigator.geolocation.getCurrentPosition(
      ({ coords }) => {
        const { map, setUserPosition } = useMapStore.getState();
        setUserPosition({ latitude: coords.latitude, longitude: coords.longitude });
        if (map) moveCamera(map, { center: [coords.longitude, coords.latitude], zoom: MAP.locateZoom });
        resolve(true);
      },
      (error) => {
        showError(geolocationErrorMessage(error));
        resolve(false);
      },
      { enableHighAccuracy: true, timeout: MAP.locateTimeoutMs, maximumAge: MAP.locateMaxAgeMs },
    );
  });
}
