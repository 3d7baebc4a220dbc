import { MAP, SHELL_MESSAGES, TIMING } from '@moodmap/core';
import { toast } from '../../ui/toasts/toast-store.ts';
import { useMapStore } from './map-store.ts';

/** The French text for a failed position request (spec §8 "Geolocation"). */
export function geolocationErrorMessage(error: Pick<GeolocationPositionError, 'code'> | null): string {
  switch (error?.code) {
    case 1:
      return SHELL_MESSAGES.geo_denied;
    case 2:
      return SHELL_MESSAGES.geo_unavailable;
    case 3:
      return SHELL_MESSAGES.geo_timeout;
    default:
      return SHELL_MESSAGES.geo_other;
  }
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
        map?.flyTo({ center: [coords.longitude, coords.latitude], zoom: MAP.locateZoom, essential: true });
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
