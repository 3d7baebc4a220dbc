/**
 * What follows a sign-in and a sign-out; the follow-up delays are core's TIMING.
 */
import type { QueryClient } from '@tanstack/react-query';
import { MAP, TIMING } from '@moodmap/core';
import { useMapStore } from '../map/map-store.ts';

/** Queries that do not depend on who is signed in. */
const SHARED_KEYS = new Set(['config']);

/**
 * Location permission is asked at login with a 5 s timeout; a refusal or a failure is silent
 * (the "locate me" button reports its own errors).
 */
export function requestLocationQuietly(): void {
  if (typeof navigator === 'undefined' || !navigator.geolocation) return;
  try {
    navigator.geolocation.getCurrentPosition(
      ({ coords }) =>
        useMapStore.getState().setUserPosition({ latitude: coords.latitude, longitude: coords.longitude }),
      () => undefined,
      { timeout: MAP.initialGeoTimeoutMs, maximumAge: MAP.initialGeoMaxAgeMs },
    );
  } catch {
    // Some embedded browsers throw instead of calling the error callback.
  }
}

/** After ~100 ms the signed-in user's data is refetched, posts after a further 500 ms. */
export function refetchAfterSignIn(client: QueryClient | null): void {
  if (!client) return;
  setTimeout(() => {
    void client.invalidateQueries({
      predicate: (q) => !SHARED_KEYS.has(String(q.queryKey[0])) && q.queryKey[0] !== 'posts',
    });
  }, TIMING.authProfileDelayMs);
  setTimeout(() => {
    void client.invalidateQueries({ queryKey: ['posts'] });
  }, TIMING.authProfileDelayMs + TIMING.authPostsDelayMs);
}

/** After sign-out, posts are refetched after 1 s (likes and authorship change with the viewer). */
export function refetchAfterSignOut(client: QueryClient | null): void {
  if (!client) return;
  setTimeout(() => {
    void client.invalidateQueries({ queryKey: ['posts'] });
  }, TIMING.signOutRefetchMs);
}
