// @vitest-environment jsdom
/**
 * 'Position approximative' in the browser: the create page's switch is off by default,
 * remembered on this device once changed, and sent as `approximate: true`; the card says so.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { MAP, type PostDto } from '@moodmap/core';
import { fakeApi, json } from './support/auth-fixtures.ts';
import { makePost } from './support/posts.ts';

// WebGL does not exist in jsdom: the picker is a stand-in holding the default pick.
vi.mock('../src/features/posts/create/LocationPicker.tsx', () => ({
  default: () => <div data-testid="location-picker" />,
}));

const { CreateScreen } = await import('../src/features/posts/CreateScreen.tsx');
const { PostCard } = await import('../src/features/posts/PostCard.tsx');
const { useSessionStore } = await import('../src/features/auth/session-store.ts');

function renderIn(element: React.ReactNode, path = '/create') {
  const router = createMemoryRouter(
    [
      { path: '/', element: <div data-testid="home" /> },
      { path, element },
    ],
    { initialEntries: [path] },
  );
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return router;
}

const created = (over: Partial<PostDto> = {}) =>
  makePost({
    id: 'p-new',
    userId: 'u-1',
    latitude: MAP.pickerInitial.latitude,
    longitude: MAP.pickerInitial.longitude,
    createdAt: new Date().toISOString(),
    ...over,
  });

function routes() {
  return fakeApi({
    'GET /api/posts/mine/active': () => json(200, { post: null }),
    'GET /api/geo/land': () => json(200, { onLand: true }),
    'POST /api/posts': () => json(201, { post: created({ approximate: true }) }),
  });
}

const toggle = () => within(screen.getByTestId('approximate-toggle')).getByRole('switch') as HTMLInputElement;

async function publish() {
  fireEvent.click(within(screen.getByTestId('create-mood-happy')).getByRole('radio'));
  fireEvent.change(screen.getByTestId('create-content'), { target: { value: 'Depuis chez moi' } });
  await act(async () => fireEvent.click(screen.getByTestId('create-submit')));
}

beforeEach(() => {
  localStorage.clear();
  window.HTMLElement.prototype.scrollIntoView = vi.fn();
  useSessionStore.setState({
    status: 'ready',
    user: { id: 'u-1', email: 'lea@exemple.fr', nickname: 'Léa', pulseCredits: 0 },
  });
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  useSessionStore.setState({ user: null });
});

describe("create page: 'Position approximative'", () => {
  it('is off by default, and an exact post is sent without it', async () => {
    const api = routes();
    const router = renderIn(<CreateScreen />);
    await screen.findByTestId('create-form');
    expect(screen.getByTestId('approximate-toggle').textContent).toContain('Position approximative');
    expect(toggle().checked).toBe(false);
    await publish();
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(api.callsTo('POST /api/posts')[0]!.body).not.toHaveProperty('approximate');
  });

  it('is remembered on this device once turned on, and sent as approximate: true', async () => {
    routes();
    renderIn(<CreateScreen />);
    await screen.findByTestId('create-form');
    fireEvent.click(toggle());
    expect(toggle().checked).toBe(true);
    cleanup();

    // Another visit to the create page: still on.
    const api = routes();
    const router = renderIn(<CreateScreen />);
    await screen.findByTestId('create-form');
    expect(toggle().checked).toBe(true);
    await publish();
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(api.callsTo('POST /api/posts')[0]!.body).toMatchObject({
      category: 'happy',
      content: 'Depuis chez moi',
      approximate: true,
    });
    cleanup();

    // Turned off again: remembered off.
    routes();
    renderIn(<CreateScreen />);
    await screen.findByTestId('create-form');
    fireEvent.click(toggle());
    cleanup();
    renderIn(<CreateScreen />);
    await screen.findByTestId('create-form');
    expect(toggle().checked).toBe(false);
  });
});

describe("post card: 'Position approximative'", () => {
  const NOW = new Date('2026-03-01T10:05:00.000Z');

  it('says so on an approximate post only', () => {
    renderIn(<PostCard post={makePost({ approximate: true })} now={NOW} onClose={vi.fn()} />, '/card');
    expect(screen.getByTestId('post-approximate').textContent?.trim()).toBe('Position approximative');
    cleanup();
    renderIn(<PostCard post={makePost()} now={NOW} onClose={vi.fn()} />, '/card');
    expect(screen.getByTestId('post-popup')).toBeTruthy();
    expect(screen.queryByTestId('post-approximate')).toBeNull();
    expect(screen.getByTestId('post-popup').textContent).not.toContain('Position approximative');
  });
});
