// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { useSessionStore } from '../src/features/auth/session-store.ts';
import { AdminScreen } from '../src/features/admin/AdminScreen.tsx';
import { ProfileScreen } from '../src/features/profile/ProfileScreen.tsx';
import { applySession } from '../src/lib/auth-tokens.ts';
import { apiUser, fakeApi, json, sessionBody } from './support/auth-fixtures.ts';
import { freshSessionEachTest } from './support/fresh-session.ts';
import { renderRoutes } from './support/render-routes.tsx';

function renderAt(path: string) {
  return renderRoutes(
    [
      { path: '/', element: <p>carte</p> },
      { path: '/profile', element: <ProfileScreen /> },
      { path: '/admin', element: <AdminScreen /> },
      { path: '/create', element: <p>publier</p> },
    ],
    path,
  ).router;
}

freshSessionEachTest();

describe('/admin, by role', () => {
  const USER = {
    id: 'a1b2c3d4-0000-4000-8000-000000000000',
    username: 'Léa',
    createdAt: '2026-03-05T10:00:00.000Z',
    role: 'user',
    suspendedUntil: null,
    banned: false,
  };
  const LOG = {
    id: 'l1',
    eventType: 'login_failed',
    eventDescription: 'Échec de connexion',
    severity: 'high',
    createdAt: '2026-03-05T10:00:00.000Z',
    userId: null,
    targetId: null,
    reason: null,
  };
  const panelApi = (role: string) =>
    fakeApi({
      'GET /api/auth/role': () => json(200, { role }),
      'POST /api/admin/visit': () => json(200, { role }),
      // The server gives a moderator an empty users list.
      'GET /api/admin/users': () =>
        json(
          200,
          role === 'moderator'
            ? { users: [], nextCursor: null, total: 0 }
            : { users: [USER], nextCursor: null, total: 1 },
        ),
      'GET /api/admin/security-logs': () => json(200, { logs: [LOG], nextCursor: null, total: 1 }),
      'GET /api/moderation/queue': () => json(200, { reports: [], appeals: [] }),
    });

  it.each([
    ['super_admin', 'Super administrateur', 'bg-red-100', 1],
    ['admin', 'Administrateur', 'bg-purple-100', 1],
    ['moderator', 'Modérateur', 'bg-blue-100', 0],
  ])(
    'opens the panel to %s, with its French badge, the refresh button, the tabs and their rows',
    async (role, label, colour, users) => {
      const server = panelApi(role);
      applySession(sessionBody(1));
      renderAt('/admin');
      const panel = await screen.findByTestId('admin-panel');
      expect(screen.getByRole('heading', { name: "Panel d'Administration" })).toBeTruthy();
      const badge = within(panel).getByTestId('role-badge');
      expect(badge.textContent).toBe(label);
      // 'Statistiques' for admin and super_admin only.
      expect(within(panel).queryByRole('tab', { name: 'Statistiques' }) !== null).toBe(role !== 'moderator');
      expect(badge.className).toContain(colour);
      expect(server.callsTo('GET /api/auth/role')[0]!.authorization).toBe('Bearer A1');
      await waitFor(() => expect(server.callsTo('POST /api/admin/visit')).toHaveLength(1));
      const headers = () =>
        within(panel)
          .getAllByRole('columnheader')
          .map((h) => h.textContent);
      expect(headers()).toEqual(['Utilisateur', 'Email', "Date d'inscription", 'Rôle']);
      await within(panel).findByRole('tab', { name: `Utilisateurs (${users})` });
      if (users) {
        const row = await within(panel).findByTestId('admin-user-row');
        expect(row.textContent).toContain('Léa');
        expect(row.textContent).toContain(`${USER.id.slice(0, 8)}...`);
        expect(row.textContent).toContain('Confidentiel');
        expect(row.textContent).toContain('05/03/2026');
      } else {
        expect(within(panel).queryByTestId('admin-user-row')).toBeNull();
      }
      fireEvent.click(await within(panel).findByRole('tab', { name: 'Logs de sécurité (1)' }));
      expect(headers()).toEqual(['Événement', 'Sévérité', 'Date']);
      const log = await within(panel).findByTestId('admin-log-row');
      expect(log.textContent).toContain('LOGIN FAILED');
      expect(log.textContent).toContain('Échec de connexion');
      expect(within(log).getByText('Élevée').className).toContain('bg-orange-100');
      expect(within(panel).getByRole('tab', { name: 'Signalements (0)' })).toBeTruthy();

      fireEvent.click(within(panel).getByRole('button', { name: 'Actualiser' }));
      await waitFor(() => expect(server.callsTo('GET /api/auth/role')).toHaveLength(2));
      await waitFor(() => expect(server.callsTo('GET /api/admin/security-logs').length).toBeGreaterThan(1));
    },
  );

  it('refuses other roles, naming the current one', async () => {
    const server = fakeApi({
      'GET /api/auth/role': () => json(200, { role: 'user' }),
      'POST /api/admin/visit': () =>
        json(403, { error: { code: 'forbidden', message: 'Accès refusé : permissions insuffisantes' } }),
    });
    applySession(sessionBody(1));
    renderAt('/admin');
    expect(await screen.findByText('Accès refusé')).toBeTruthy();
    expect(screen.getByText("Vous n'avez pas les permissions pour accéder à cette page.")).toBeTruthy();
    expect(screen.getByText('Rôle actuel: Membre')).toBeTruthy();
    // The visit is still reported: the server logs 'permission_denied'.
    await waitFor(() => expect(server.callsTo('POST /api/admin/visit')).toHaveLength(1));
    expect(screen.queryByTestId('admin-panel')).toBeNull();
  });

  it('says when the role cannot be checked', async () => {
    fakeApi({ 'GET /api/auth/role': () => json(500, { error: { code: 'internal_error', message: 'x' } }) });
    applySession(sessionBody(1));
    renderAt('/admin');
    expect((await screen.findByRole('alert')).textContent).toBe('Erreur lors de la vérification des permissions');
  });
});

describe('/profile when signed in', () => {
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
