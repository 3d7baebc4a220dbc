// @vitest-environment jsdom
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { resetSessionForTests, useSessionStore } from '../src/features/auth/session-store.ts';
import { ResetPasswordPage } from '../src/features/auth/ResetPasswordPage.tsx';
import { json, sessionBody } from './support/auth-fixtures.ts';
import { loadSessionSchemas } from '../src/lib/auth-tokens.ts';

const VALID = '/reset-password?type=recovery&access_token=AT&refresh_token=RT';

function renderAt(path: string) {
  const router = createMemoryRouter(
    [
      { path: '/reset-password', element: <ResetPasswordPage /> },
      { path: '/', element: <p>accueil</p> },
    ],
    { initialEntries: [path] },
  );
  render(<RouterProvider router={router} />);
  return router;
}

const newPassword = () => screen.getByLabelText('Nouveau mot de passe');
const confirmation = () => screen.getByLabelText('Confirmer le mot de passe');
const submit = () =>
  screen.getByRole('button', { name: /Changer le mot de passe|Modification en cours/ }) as HTMLButtonElement;

describe('reset-password screen', () => {
  // The answer's session is read by schemas fetched on first use: a module load the fake clock
  // below cannot wait for, so they are fetched before, as any earlier sign-in would have.
  beforeAll(async () => {
    await loadSessionSchemas();
  });

  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    vi.useRealTimers();
    resetSessionForTests();
  });
  beforeEach(() => {
    localStorage.clear();
    resetSessionForTests();
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('{}', { status: 200 })),
    );
  });

  it.each([
    '/reset-password',
    '/reset-password?access_token=AT&refresh_token=RT',
    '/reset-password?type=recovery&access_token=AT',
    // A used or expired link, after the URL-forcing rule moved `type` into the query.
    '/reset-password?type=recovery#error=link_invalid',
    '/reset-password?type=recovery&error=link_invalid',
  ])('refuses an incomplete link %s', (path) => {
    renderAt(path);
    expect(screen.getByRole('alert').textContent).toBe(
      'Lien de réinitialisation invalide ou expiré. Veuillez demander un nouveau lien.',
    );
    expect(screen.getByRole('link', { name: /Retour à l'accueil/ }).getAttribute('href')).toBe('/');
  });

  it('disables submit while a field is empty or they differ, with an inline mismatch text', () => {
    renderAt(VALID);
    expect(screen.getByRole('heading', { name: 'Nouveau mot de passe' })).toBeTruthy();
    expect(submit().disabled).toBe(true);
    fireEvent.change(newPassword(), { target: { value: 'Secret123' } });
    expect(submit().disabled).toBe(true);
    fireEvent.change(confirmation(), { target: { value: 'Secret124' } });
    expect(submit().disabled).toBe(true);
    expect(screen.getByText('Les mots de passe ne correspondent pas')).toBeTruthy();
    fireEvent.change(confirmation(), { target: { value: 'Secret123' } });
    expect(submit().disabled).toBe(false);
    expect(screen.queryByText('Les mots de passe ne correspondent pas')).toBeNull();
  });

  it('toggles each password between hidden and shown', () => {
    renderAt(VALID);
    expect(newPassword().getAttribute('type')).toBe('password');
    fireEvent.click(screen.getAllByRole('button', { name: 'Afficher le mot de passe' })[0]!);
    expect(newPassword().getAttribute('type')).toBe('text');
    expect(confirmation().getAttribute('type')).toBe('password');
  });

  it('checks the password rules before calling the server', async () => {
    renderAt(VALID);
    fireEvent.change(newPassword(), { target: { value: 'alllowercase1' } });
    fireEvent.change(confirmation(), { target: { value: 'alllowercase1' } });
    fireEvent.click(submit());
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Le mot de passe doit contenir au moins une majuscule, une minuscule et un chiffre',
    );
    expect(fetch).not.toHaveBeenCalled();
  });

  it.each([
    ['session_not_found', 'Session de récupération expirée. Veuillez demander un nouveau lien.'],
    ['weak_password', 'Mot de passe trop faible. Veuillez choisir un mot de passe plus fort.'],
    ['something_else', 'Une erreur est survenue lors de la réinitialisation'],
  ])('maps the failure %s to its text', async (code, text) => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response(JSON.stringify({ error: { code, message: 'x' } }), { status: 400 })),
    );
    renderAt(VALID);
    fireEvent.change(newPassword(), { target: { value: 'Secret123' } });
    fireEvent.change(confirmation(), { target: { value: 'Secret123' } });
    fireEvent.click(submit());
    expect((await screen.findByRole('alert')).textContent).toBe(text);
  });

  it('sends the tokens, signs in with the answer, shows the success view, then goes to / after 3 s', async () => {
    let release: (r: Response) => void = () => undefined;
    const fetchMock = vi.fn(() => new Promise<Response>((resolve) => (release = resolve)));
    vi.stubGlobal('fetch', fetchMock);
    const router = renderAt(VALID);
    fireEvent.change(newPassword(), { target: { value: 'Secret123' } });
    fireEvent.change(confirmation(), { target: { value: 'Secret123' } });
    fireEvent.click(submit());
    expect(submit().textContent).toContain('Modification en cours...');
    expect(submit().disabled).toBe(true);
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/auth/reset-password');
    expect(JSON.parse(String(init.body))).toEqual({ accessToken: 'AT', refreshToken: 'RT', password: 'Secret123' });

    vi.useFakeTimers();
    await act(async () => release(json(200, sessionBody(7))));
    expect(screen.getByText('Mot de passe modifié !')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/reset-password');
    // The spent tokens left the address; the new session is the current one.
    expect(router.state.location.search).toBe('');
    expect(useSessionStore.getState().user?.email).toBe('camille@exemple.fr');
    // The new session's refresh token is in the cookie the answer set; only the marker is stored.
    expect(localStorage.getItem('moodmap.session')).not.toBeNull();
    expect(JSON.stringify({ ...localStorage })).not.toContain('RT');
    await act(async () => vi.advanceTimersByTime(3000));
    expect(router.state.location.pathname).toBe('/');
  });

  it('continues to / from the success view', async () => {
    const router = renderAt(VALID);
    fireEvent.change(newPassword(), { target: { value: 'Secret123' } });
    fireEvent.change(confirmation(), { target: { value: 'Secret123' } });
    fireEvent.click(submit());
    fireEvent.click(await screen.findByRole('button', { name: 'Continuer' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
  });
});
