// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { resetSessionForTests, useSessionStore } from '../src/features/auth/session-store.ts';
import { AdminScreen } from '../src/features/admin/AdminScreen.tsx';
import { ProfileScreen } from '../src/features/profile/ProfileScreen.tsx';
import { applySession } from '../src/lib/auth-tokens.ts';
import { apiUser, fakeApi, json, sessionBody } from './support/auth-fixtures.ts';

function renderAt(path: string) {
  const router = createMemoryRouter(
    [
      { path: '/', element: <p>carte</p> },
      { path: '/profile', element: <ProfileScreen /> },
      { path: '/admin', element: <AdminScreen /> },
      { path: '/create', element: <p>publier</p> },
    ],
    { initialEntries: [path] },
  );
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return router;
}

beforeEach(() => {
  localStorage.clear();
  resetSessionForTests();
  useSessionStore.setState({ status: 'ready' });
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  resetSessionForTests();
});

describe('/admin (spec §2 "Administration panel", §6)', () => {
  it.each([
    ['super_admin', 'bg-red-100'],
    ['admin', 'bg-purple-100'],
    ['moderator', 'bg-blue-100'],
  ])('opens the panel to %s, with its badge colour, the refresh button and both tabs', async (role, colour) => {
    const server = fakeApi({ 'GET /api/auth/role': () => json(200, { role }) });
    applySession(sessionBody(1));
    renderAt('/admin');
    const panel = await screen.findByTestId('admin-panel');
    expect(screen.getByRole('heading', { name: "Panel d'Administration" })).toBeTruthy();
    const badge = within(panel).getByTestId('role-badge');
    expect(badge.textContent).toBe(role);
    expect(badge.className).toContain(colour);
    expect(server.callsTo('GET /api/auth/role')[0]!.authorization).toBe('Bearer A1');
    const headers = () => within(panel).getAllByRole('columnheader').map((h) => h.textContent);
    expect(headers()).toEqual(['Utilisateur', 'Email', "Date d'inscription"]);
    fireEvent.click(within(panel).getByRole('tab', { name: 'Logs de sécurité (0)' }));
    expect(headers()).toEqual(['Événement', 'Sévérité', 'Date']);
    expect(within(panel).getByRole('tab', { name: 'Utilisateurs (0)' })).toBeTruthy();

    fireEvent.click(within(panel).getByRole('button', { name: 'Actualiser' }));
    await waitFor(() => expect(server.callsTo('GET /api/auth/role')).toHaveLength(2));
  });

  it('refuses other roles, naming the current one', async () => {
    fakeApi({ 'GET /api/auth/role': () => json(200, { role: 'user' }) });
    applySession(sessionBody(1));
    renderAt('/admin');
    expect(await screen.findByText('Accès refusé')).toBeTruthy();
    expect(screen.getByText("Vous n'avez pas les permissions pour accéder à cette page.")).toBeTruthy();
    expect(screen.getByText('Rôle actuel: user')).toBeTruthy();
    expect(screen.queryByTestId('admin-panel')).toBeNull();
  });

  it('says when the role cannot be checked', async () => {
    fakeApi({ 'GET /api/auth/role': () => json(500, { error: { code: 'internal_error', message: 'x' } }) });
    applySession(sessionBody(1));
    renderAt('/admin');
    expect((await screen.findByRole('alert')).textContent).toBe('Erreur lors de la vérification des permissions');
  });
});

describe('/profile when signed in (spec §2 "Own profile")', () => {
  it("shows the user, 'Publier' to /create, and 'Déconnexion' signs out then goes to /", async () => {
    const server = fakeApi({ 'POST /api/auth/logout': () => new Response(null, { status: 204 }) });
    applySession(sessionBody(1));
    const router = renderAt('/profile');
    expect(screen.getByTestId('profile-nickname').textContent).toBe('Camille');
    expect(screen.getByText('Camille Martin')).toBeTruthy();
    expect(screen.getByTestId('profile-email').textContent).toBe('camille@exemple.fr');
    expect(screen.getByRole('link', { name: 'Publier' }).getAttribute('href')).toBe('/create');
    expect(screen.queryByRole('link', { name: 'Admin' })).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: 'Déconnexion' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(useSessionStore.getState().user).toBeNull();
    await waitFor(() => expect(server.callsTo('POST /api/auth/logout')).toHaveLength(1));
  });

  it("shows 'Admin' to /admin instead of 'Publier' for the admin account", () => {
    fakeApi({});
    applySession(sessionBody(1, apiUser({ isAdmin: true })));
    renderAt('/profile');
    expect(screen.getByRole('link', { name: 'Admin' }).getAttribute('href')).toBe('/admin');
    expect(screen.queryByRole('link', { name: 'Publier' })).toBeNull();
  });
});
