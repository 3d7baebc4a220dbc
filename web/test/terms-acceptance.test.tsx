// @vitest-environment jsdom
/**
 * The terms acceptance screen: when the API refuses a write because the member has not accepted
 * the terms in force, or when their session says the acceptance is outdated, the CGU modal opens
 * with « Accepter »; accepting calls the acceptance route, closes it, and the write goes through.
 */
import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { LaunchLayer } from '../src/features/terms/LaunchLayer.tsx';
import { api, ApiError } from '../src/lib/api.ts';
import { applySession } from '../src/lib/auth-tokens.ts';
import { fakeApi, json, sessionBody } from './support/auth-fixtures.ts';
import { freshSessionEachTest } from './support/fresh-session.ts';
import { renderRoutes } from './support/render-routes.tsx';

const CURRENT = { version: '2026-11-24', effectiveAt: '2026-11-24T00:00:00.000Z' };
const REFUSED = {
  error: {
    code: 'terms_not_accepted',
    message: "Vous devez accepter les conditions d'utilisation en vigueur pour continuer.",
  },
};
const renderLayer = () => renderRoutes([{ path: '/', element: <LaunchLayer /> }]);

freshSessionEachTest();

describe('terms acceptance screen', () => {
  it('opens when a write is refused for the terms, and lets the member accept and carry on', async () => {
    let accepted = false;
    const calls = fakeApi({
      'GET /api/terms': () =>
        json(200, {
          current: CURRENT,
          upcoming: null,
          acceptedVersion: accepted ? CURRENT.version : '2020-01-01',
          mustAccept: false,
        }),
      'POST /api/terms/accept': () => {
        accepted = true;
        return json(200, { version: CURRENT.version, acceptedAt: new Date().toISOString() });
      },
      'POST /api/posts': () => (accepted ? json(201, { post: { id: 'p1' } }) : json(403, REFUSED)),
      'GET /api/emergency': () => json(200, { active: false, until: null }),
    });
    applySession(sessionBody(1));
    renderLayer();
    await waitFor(() => expect(calls.callsTo('GET /api/terms').length).toBeGreaterThan(0));
    expect(screen.queryByTestId('terms-modal')).toBeNull();

    const refused = await api('/api/posts', { method: 'POST', body: { content: 'Bonjour' } }).catch(
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(ApiError);
    expect(await screen.findAllByTestId('terms-section')).toHaveLength(14);
    fireEvent.click(await screen.findByTestId('terms-accept'));

    await waitFor(() => expect(screen.queryByTestId('terms-modal')).toBeNull());
    expect(calls.callsTo('POST /api/terms/accept')[0]!.body).toEqual({ version: CURRENT.version });
    expect(await api('/api/posts', { method: 'POST', body: { content: 'Bonjour' } })).toEqual({ post: { id: 'p1' } });
  });

  it('opens by itself when the session says the acceptance is outdated', async () => {
    fakeApi({
      'GET /api/terms': () =>
        json(200, { current: CURRENT, upcoming: null, acceptedVersion: '2020-01-01', mustAccept: true }),
      'GET /api/emergency': () => json(200, { active: false, until: null }),
    });
    applySession(sessionBody(1));
    renderLayer();
    expect(await screen.findByTestId('terms-accept')).toBeTruthy();
    expect(screen.getAllByTestId('terms-section')).toHaveLength(14);
  });
});
