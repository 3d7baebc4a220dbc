// @vitest-environment jsdom
/**
 * The first load puts the map first: the launch layer (terms notices, emergency
 * banner) asks the server nothing until the map has drawn its first view, and comes at once on
 * the pages that show no map.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, screen, waitFor } from '@testing-library/react';
import type { Map as MapLibreMap } from 'maplibre-gl';
import { renderRoutes } from './support/render-routes.tsx';

// WebGL does not exist in jsdom: the shell is tested around a stand-in map.
vi.mock('../src/features/map/MapView.tsx', () => ({ MapView: () => <div data-testid="map-canvas" /> }));

const { routes } = await import('../src/app/routes.tsx');
const { resetFirstViewForTests, useFirstView } = await import('../src/app/first-view.ts');
const { useMapStore } = await import('../src/features/map/map-store.ts');
const { useSessionStore } = await import('../src/features/auth/session-store.ts');

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
const asked: string[] = [];

beforeEach(() => {
  asked.length = 0;
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL) => {
      const url = new URL(String(input), 'http://localhost');
      asked.push(url.pathname);
      if (url.pathname === '/api/config')
        return json(200, { mapStyleUrl: null, mapStyleUrlDark: null, isAdmin: false });
      if (url.pathname === '/api/emergency') return json(200, { active: true, until: '2026-11-24T18:00:00.000Z' });
      return json(404, { error: { code: 'not_found', message: 'Ressource introuvable' } });
    }),
  );
  resetFirstViewForTests();
  useMapStore.setState({ map: null });
  useSessionStore.setState({ user: null, status: 'ready' });
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

/** The map as the shell sees it before its first view: not loaded yet; 'idle' comes later. */
function loadingMap() {
  const idle = new Set<() => void>();
  const map = {
    loaded: () => false,
    isStyleLoaded: () => false,
    once: (type: string, listener: () => void) => {
      if (type === 'idle') idle.add(listener);
      return map;
    },
    off: (type: string, listener: () => void) => {
      if (type === 'idle') idle.delete(listener);
      return map;
    },
  };
  return { map: map as unknown as MapLibreMap, fireIdle: () => [...idle].forEach((listener) => listener()) };
}

describe('first view', () => {
  it('asks for the emergency banner only once the map has drawn its first view', async () => {
    renderRoutes(routes, '/');
    expect(await screen.findByTestId('map-canvas')).toBeTruthy();
    const { map, fireIdle } = loadingMap();
    act(() => useMapStore.setState({ map }));
    // The shell and its config are up; the map is still loading its tiles.
    await waitFor(() => expect(asked).toContain('/api/config'));
    // Every answer asked for so far has arrived and the shell has drawn what it decides.
    await act(async () => {
      await Promise.all(vi.mocked(fetch).mock.results.map((result) => result.value));
    });
    expect(asked).not.toContain('/api/emergency');
    expect(screen.queryByTestId('emergency-banner')).toBeNull();

    act(fireIdle);
    expect(useFirstView.getState().drawn).toBe(true);
    expect((await screen.findByTestId('emergency-banner')).textContent).toBe(
      'Mode de protection activé : la publication est temporairement suspendue.',
    );
    expect(asked).toContain('/api/emergency');
  });

  it('shows the launch layer at once on a page without the map', async () => {
    renderRoutes(routes, '/reset-password');
    expect(await screen.findByTestId('emergency-banner')).toBeTruthy();
    expect(screen.queryByTestId('map-canvas')).toBeNull();
  });
});
