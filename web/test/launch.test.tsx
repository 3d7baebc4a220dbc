// @vitest-environment jsdom
/**
 * Launch UI: the terms notice 30 days ahead and the request to accept afterwards, the
 * emergency banner, and analytics that respect Do Not Track / Global Privacy Control.
 */
import { describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { LaunchLayer } from '../src/features/terms/LaunchLayer.tsx';
import { applySession } from '../src/lib/auth-tokens.ts';
import { track } from '../src/lib/analytics.ts';
import { fakeApi, json, sessionBody } from './support/auth-fixtures.ts';
import { freshSessionEachTest } from './support/fresh-session.ts';
import { renderRoutes } from './support/render-routes.tsx';

const CURRENT = { version: '2026-11-24', effectiveAt: '2026-11-24T00:00:00.000Z' };
const NEXT = { version: '2027-01-01', effectiveAt: '2027-01-01T00:00:00.000Z' };
const renderLayer = () => renderRoutes([{ path: '/', element: <LaunchLayer /> }]);

freshSessionEachTest();

describe('terms notices', () => {
  it('announces a new version with its date, and opens the 14 sections', async () => {
    fakeApi({
      'GET /api/terms': () =>
        json(200, { current: CURRENT, upcoming: NEXT, acceptedVersion: CURRENT.version, mustAccept: false }),
      'GET /api/emergency': () => json(200, { active: false, until: null }),
    });
    applySession(sessionBody(1));
    renderLayer();
    const notice = await screen.findByTestId('terms-notice');
    expect(notice.textContent).toContain("Nos conditions d'utilisation changent le 1 janvier 2027.");
    fireEvent.click(screen.getByRole('button', { name: 'Voir les nouvelles conditions' }));
    expect(await screen.findAllByTestId('terms-section')).toHaveLength(14);
    expect(screen.queryByTestId('terms-accept')).toBeNull();
  });

  it('asks a member to accept the version in force, and stops asking once accepted', async () => {
    let accepted = false;
    const api = fakeApi({
      'GET /api/terms': () =>
        json(200, {
          current: CURRENT,
          upcoming: null,
          acceptedVersion: accepted ? CURRENT.version : null,
          mustAccept: !accepted,
        }),
      'POST /api/terms/accept': () => {
        accepted = true;
        return json(200, { version: CURRENT.version, acceptedAt: new Date().toISOString() });
      },
      'GET /api/emergency': () => json(200, { active: false, until: null }),
    });
    applySession(sessionBody(1));
    renderLayer();
    expect((await screen.findByTestId('terms-notice')).textContent).toContain(
      "Nos conditions d'utilisation ont changé. Acceptez-les pour continuer.",
    );
    fireEvent.click(screen.getByRole('button', { name: 'Lire et accepter' }));
    fireEvent.click(await screen.findByTestId('terms-accept'));
    await waitFor(() => expect(screen.queryByTestId('terms-notice')).toBeNull());
    expect(api.callsTo('POST /api/terms/accept')[0]!.body).toEqual({ version: CURRENT.version });
  });
});

describe('emergency banner', () => {
  it('shows while the server says emergency mode is on', async () => {
    fakeApi({ 'GET /api/emergency': () => json(200, { active: true, until: '2026-11-24T18:00:00.000Z' }) });
    renderLayer();
    expect((await screen.findByTestId('emergency-banner')).textContent).toBe(
      'Mode de protection activé : la publication est temporairement suspendue.',
    );
  });
});

describe('analytics', () => {
  it('sends an event, and nothing under Do Not Track or Global Privacy Control', () => {
    const api = fakeApi({ 'POST /api/analytics/events': () => json(202, null) });
    vi.stubGlobal('navigator', { ...navigator, sendBeacon: undefined, doNotTrack: null });
    track('search');
    expect(api.callsTo('POST /api/analytics/events').map((c) => c.body)).toEqual([{ name: 'search', path: '/' }]);
    vi.stubGlobal('navigator', { ...navigator, sendBeacon: undefined, doNotTrack: '1' });
    track('search');
    vi.stubGlobal('navigator', { ...navigator, sendBeacon: undefined, doNotTrack: null, globalPrivacyControl: true });
    track('search');
    expect(api.callsTo('POST /api/analytics/events')).toHaveLength(1);
  });

  it('sends the route template, never the member id in the path', () => {
    const api = fakeApi({ 'POST /api/analytics/events': () => json(202, null) });
    vi.stubGlobal('navigator', { ...navigator, sendBeacon: undefined, doNotTrack: null });
    window.history.pushState(null, '', '/user/5f0c1d2e-3a4b-4c5d-8e6f-7a8b9c0d1e2f');
    track('search');
    window.history.pushState(null, '', '/une/page/inconnue');
    track('search');
    window.history.pushState(null, '', '/');
    expect(api.callsTo('POST /api/analytics/events').map((c) => c.body)).toEqual([
      { name: 'search', path: '/user/:id' },
      { name: 'search', path: '/*' },
    ]);
  });
});
