// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { BottomNav } from '../src/app/BottomNav.tsx';
import { useSessionStore } from '../src/features/auth/session-store.ts';
import { useUiStore } from '../src/lib/ui-store.ts';

/** The unread conversations as the server last answered them (the badge's query). */
let unreadIds: string[] = [];

function renderNav(path = '/') {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  client.setQueryData(['conversations', 'unread'], unreadIds);
  return render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={[path]}>
        <BottomNav />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

const ids = (n: number) => Array.from({ length: n }, (_, i) => `c-${i + 1}`);

describe('bottom navigation', () => {
  beforeEach(() => {
    useSessionStore.setState({ user: null, status: 'ready' });
    useUiStore.setState({ authMode: null });
    unreadIds = [];
  });
  afterEach(cleanup);

  it('has the four entries, the profile one reading "Se connecter" when signed out', () => {
    renderNav();
    const nav = screen.getByRole('navigation', { name: 'Navigation principale' });
    expect(within(nav).getByText('Se connecter')).toBeTruthy();
    expect(within(nav).queryByText('Profil')).toBeNull();
    expect(within(nav).getByRole('link', { name: 'Carte' }).getAttribute('href')).toBe('/');
    expect(within(nav).getByRole('link', { name: 'Messages' }).getAttribute('href')).toBe('/messages');
    expect(within(nav).getByRole('link', { name: 'Publier' }).getAttribute('href')).toBe('/create');
  });

  it('opens the login modal instead of /profile when signed out', () => {
    renderNav();
    fireEvent.click(screen.getByRole('button', { name: 'Se connecter' }));
    expect(useUiStore.getState().authMode).toBe('login');
  });

  it('shows no unread badge to a visitor', () => {
    unreadIds = ids(4);
    renderNav();
    expect(screen.queryByTestId('unread-badge')).toBeNull();
  });

  it('reads "Profil" and links to /profile when signed in, with the capped unread badge', async () => {
    useSessionStore.setState({ user: { id: 'u1', email: 'a@b.fr', nickname: 'Alice' } });
    unreadIds = ids(12);
    renderNav();
    expect(screen.getByRole('link', { name: 'Profil' }).getAttribute('href')).toBe('/profile');
    expect(screen.queryByText('Se connecter')).toBeNull();
    // The badge's chunk is fetched once someone is signed in (app/messaging.tsx).
    expect((await screen.findByTestId('unread-badge')).textContent).toBe('9+');
    cleanup();
    unreadIds = [];
    renderNav();
    expect(screen.queryByTestId('unread-badge')).toBeNull();
  });

  it('marks the current entry', () => {
    renderNav('/messages');
    expect(screen.getByRole('link', { name: 'Messages' }).getAttribute('aria-current')).toBe('page');
    expect(screen.getByRole('link', { name: 'Carte' }).getAttribute('aria-current')).toBeNull();
  });
});
