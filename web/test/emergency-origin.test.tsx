// @vitest-environment jsdom
/**
 * The admin panel's cost card says who or what started emergency mode, when and why, and
 * refreshes when the server announces a change to staff.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import type { CostsResponse } from '@moodmap/core';
import { StatsTab } from '../src/features/stats/StatsTab.tsx';
import { applySession } from '../src/lib/auth-tokens.ts';
import { stopRealtime } from '../src/lib/realtime.ts';
import { fakeApi, json, sessionBody } from './support/auth-fixtures.ts';
import { FakeWebSocket, installFakeWebSocket } from './support/fake-websocket.ts';
import { freshSessionEachTest } from './support/fresh-session.ts';
import { renderRoutes } from './support/render-routes.tsx';

// The charts are uPlot's canvas work, not this test's subject: jsdom has no canvas, so a 2D
// context that accepts every call and draws nothing.
const noCanvas = (): unknown =>
  new Proxy(() => {}, { get: (_t, key) => (key === 'width' ? 0 : noCanvas()), apply: () => noCanvas() });

freshSessionEachTest();
beforeEach(() => {
  installFakeWebSocket();
  vi.stubGlobal('matchMedia', () => ({ matches: false, addEventListener() {}, removeEventListener() {} }));
  vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockImplementation(() => noCanvas() as CanvasRenderingContext2D);
});
afterEach(() => stopRealtime());

const STATS = { days: [], postsLive: 0, currency: 'EUR' };
const counters: CostsResponse['counters'] = [
  { metric: 'storage_operations', units: 16_000, cap: 10_000, ratio: 1.6, unitPriceEur: 0.0005, costEur: 8 },
];
const automatic: CostsResponse = {
  day: '2026-11-24',
  level: 'emergency',
  counters,
  estimatedDailyCostEur: 8,
  emergency: {
    active: true,
    until: '2026-11-24T18:00:00.000Z',
    manual: false,
    startedAt: '2026-11-24T14:00:00.000Z',
    startedBy: null,
    startedByName: null,
    reason: 'Usage à 160 % du plafond : storage_operations 16000/10000',
  },
};
const byStaff: CostsResponse = {
  ...automatic,
  emergency: {
    ...automatic.emergency,
    manual: true,
    startedBy: 'awa-1',
    startedByName: 'Awa',
    reason: 'Décision d’un super_admin',
  },
};

describe('emergency mode in the admin panel', () => {
  it('shows an automatic start with its time and reason, refreshes on the staff announcement, and lets a super_admin end it', async () => {
    let costs = automatic;
    const api = fakeApi({
      'GET /api/stats': () => json(200, STATS),
      'GET /api/costs': () => json(200, costs),
      'PUT /api/costs/emergency': () => json(200, { active: false, until: null }),
      'GET /api/emergency': () => json(200, { active: costs.emergency.active, until: costs.emergency.until }),
    });
    applySession(sessionBody(1));
    renderRoutes([{ path: '/', element: <StatsTab staffRole="super_admin" /> }]);
    const origin = await screen.findByTestId('emergency-origin');
    expect(origin.textContent).toMatch(
      /^Déclenché automatiquement le .+ : Usage à 160 % du plafond : storage_operations 16000\/10000$/,
    );

    // A change announced to staff over the socket: the card asks again and shows who did it.
    costs = byStaff;
    const socket = FakeWebSocket.sockets[FakeWebSocket.sockets.length - 1]!;
    socket.open();
    socket.receive({ type: 'emergency.changed', data: { active: true, until: byStaff.emergency.until, manual: true } });
    await waitFor(() => expect(screen.getByTestId('emergency-origin').textContent).toMatch(/^Déclenché par Awa le /));

    fireEvent.click(screen.getByTestId('emergency-switch'));
    await waitFor(() => expect(api.callsTo('PUT /api/costs/emergency')).toHaveLength(1));
    expect(api.callsTo('PUT /api/costs/emergency')[0]!.body).toEqual({ active: false });
  });
});
