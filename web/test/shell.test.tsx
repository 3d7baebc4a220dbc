// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { renderRoutes } from './support/render-routes.tsx';

// WebGL does not exist in jsdom: the shell is tested around a stand-in map.
vi.mock('../src/features/map/MapView.tsx', () => ({ MapView: () => <div data-testid="map-canvas" /> }));

const { routes } = await import('../src/app/routes.tsx');
const { useSessionStore } = await import('../src/features/auth/session-store.ts');
const { useUiStore } = await import('../src/lib/ui-store.ts');

function json(status: number, body: unknown) {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

const fetchMock = vi.fn(async (input: RequestInfo | URL, _init?: RequestInit) => {
  const url = String(input);
  if (url.endsWith('/api/config')) return json(200, { mapStyleUrl: null, mapStyleUrlDark: null, isAdmin: false });
  if (url.endsWith('/api/auth/login'))
    return json(401, { error: { code: 'invalid_credentials', message: 'Email ou mot de passe incorrect' } });
  return json(404, { error: { code: 'not_found', message: 'Ressource introuvable' } });
});

function renderApp(path: string) {
  return renderRoutes(routes, path).router;
}

describe('shell and routes', () => {
  beforeEach(() => {
    vi.stubGlobal('fetch', fetchMock);
    useSessionStore.setState({ user: null, status: 'ready' });
    useUiStore.setState({ authMode: null, helpOpen: false });
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('shows the logo splash while the session initialises', () => {
    useSessionStore.setState({ status: 'initialising' });
    renderApp('/');
    expect(screen.getByTestId('splash')).toBeTruthy();
    act(() => useSessionStore.setState({ status: 'ready' }));
    expect(screen.queryByTestId('splash')).toBeNull();
  });

  it('keeps the map at / with no panel', async () => {
    renderApp('/');
    expect(await screen.findByTestId('map-canvas')).toBeTruthy();
    expect(screen.queryByTestId('modal-panel')).toBeNull();
    expect(screen.getByTestId('bottom-nav')).toBeTruthy();
    expect(screen.getByPlaceholderText('Rechercher une publication...')).toBeTruthy();
  });

  it('redirects an unknown path to /', async () => {
    const router = renderApp('/nowhere/at/all');
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(screen.queryByTestId('modal-panel')).toBeNull();
  });

  it.each([
    ['/profile', 'Veuillez vous connecter pour voir votre profil'],
    ['/messages', 'Veuillez vous connecter pour voir vos messages'],
    ['/create', 'Veuillez vous connecter pour créer une publication'],
    ['/admin', 'Veuillez vous connecter pour accéder à cette page.'],
  ])('opens %s as a panel over the map with its signed-out text', async (path, text) => {
    renderApp(path);
    const panel = await screen.findByTestId('modal-panel');
    expect(panel.textContent).toContain(text);
    expect(await screen.findByTestId('map-canvas')).toBeTruthy();
    fireEvent.click(within(panel).getByRole('button', { name: 'Se connecter' }));
    expect(useUiStore.getState().authMode).toBe('login');
  });

  it('shows "Authentification requise" on /admin for a visitor', async () => {
    renderApp('/admin');
    expect((await screen.findByTestId('modal-panel')).textContent).toContain('Authentification requise');
  });

  it('closes the panel back to / with the close button and with Escape', async () => {
    const router = renderApp('/messages');
    fireEvent.click(await screen.findByTestId('modal-close'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    await act(() => router.navigate('/profile'));
    await screen.findByTestId('modal-panel');
    fireEvent.keyDown(document, { key: 'Escape' });
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
  });

  it('shows "Profil introuvable" with "Retour" for an unknown user', async () => {
    const router = renderApp('/user/does-not-exist');
    expect(await screen.findByText('Profil introuvable')).toBeTruthy();
    expect(fetchMock).toHaveBeenCalledWith('/api/profiles/does-not-exist', expect.anything());
    fireEvent.click(screen.getByRole('button', { name: 'Retour' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
  });

  it('signs in through the login modal and shows the server error', async () => {
    renderApp('/');
    fireEvent.click(screen.getByTestId('nav-profile'));
    const dialog = await screen.findByTestId('auth-modal');
    expect(dialog.textContent).toContain('Connexion');
    const inDialog = within(dialog);
    expect(inDialog.getByRole('button', { name: 'Mot de passe oublié ?' })).toBeTruthy();
    expect(inDialog.getByRole('button', { name: 'Créer un compte' })).toBeTruthy();

    fireEvent.click(inDialog.getByRole('button', { name: 'Se connecter' }));
    expect((await inDialog.findByRole('alert')).textContent).toBe('Veuillez remplir tous les champs');

    fireEvent.change(inDialog.getByLabelText('Email'), { target: { value: 'alice@example.fr' } });
    fireEvent.change(inDialog.getByLabelText('Mot de passe'), { target: { value: 'Secret123' } });
    fireEvent.click(inDialog.getByRole('button', { name: 'Se connecter' }));
    await waitFor(() => expect(inDialog.getByRole('alert').textContent).toBe('Email ou mot de passe incorrect'));
    const call = fetchMock.mock.calls.find(([url]) => String(url).endsWith('/api/auth/login'));
    expect(JSON.parse(String(call?.[1]?.body))).toEqual({ email: 'alice@example.fr', password: 'Secret123' });

    fireEvent.keyDown(document, { key: 'Escape' });
    expect(screen.queryByTestId('auth-modal')).toBeNull();
  });
});
