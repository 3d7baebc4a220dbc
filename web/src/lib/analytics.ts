/**
 * The web app's analytics events, sent to our own server, which stores them
 * with no personal data and forwards them to Plausible when configured. Only searches and map
 * interactions come from here: the server counts sign-ups, logins, posts and messages itself. Nothing is sent when
 * the browser asks not to be tracked (Do Not Track or Global Privacy Control). Map interactions
 * are sent at most once a minute: their count is a trend, not a trace of every move.
 */
import { analyticsPathOf, MINUTE, type ClientAnalyticsEventName } from '@moodmap/core';

const MAP_INTERACTION_EVERY_MS = MINUTE;
let lastMapInteraction = 0;

export function trackingAllowed(nav: Navigator = navigator): boolean {
  const gpc = (nav as Navigator & { globalPrivacyControl?: boolean }).globalPrivacyControl === true;
  const dnt = nav.doNotTrack === '1' || (window as Window & { doNotTrack?: string }).doNotTrack === '1';
  return !gpc && !dnt;
}

export function track(name: ClientAnalyticsEventName): void {
  if (typeof navigator === 'undefined' || !trackingAllowed()) return;
  if (name === 'map_interaction') {
    const now = Date.now();
    if (now - lastMapInteraction < MAP_INTERACTION_EVERY_MS) return;
    lastMapInteraction = now;
  }
  // The route's template only (`/user/:id`): no member id, no query, no fragment.
  const body = JSON.stringify({ name, path: analyticsPathOf(location.pathname) });
  const blob = new Blob([body], { type: 'application/json' });
  // A beacon survives the page being left right after the event (a sign-in that navigates).
  if (navigator.sendBeacon?.('/api/analytics/events', blob)) return;
  void fetch('/api/analytics/events', {
    method: 'POST',
    body,
    headers: { 'content-type': 'application/json' },
    keepalive: true,
    credentials: 'omit',
  }).catch(() => {});
}
