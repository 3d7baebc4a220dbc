// @vitest-environment jsdom
import { SEARCH_DEBOUNCE_MS } from '@moodmap/core';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryRouter, RouterProvider, useLocation } from 'react-router';
import { MOODS, type PostDto } from '@moodmap/core';
import { SearchBox } from '../src/features/search/SearchBox.tsx';
import { useSearchStore } from '../src/features/search/search-store.ts';
import { useMoodFilterStore } from '../src/features/moods/mood-filter-store.ts';
import { POSTS_KEY, cardKey, findCachedMarker } from '../src/features/posts/posts-query.ts';
import { fakeApi, json } from './support/auth-fixtures.ts';
import { feedOf, makePost } from './support/interactions.tsx';

function Where() {
  const location = useLocation();
  return <p data-testid="where">{`${location.pathname}|${JSON.stringify(location.state)}`}</p>;
}

function renderSearch(initial = '/messages') {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  client.setQueryData(POSTS_KEY, feedOf(makePost({ id: 'cached' })));
  const element = (
    <>
      <SearchBox />
      <Where />
    </>
  );
  const router = createMemoryRouter([{ path: '*', element }], { initialEntries: [initial] });
  render(
    <QueryClientProvider client={client}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return { client, router, input: screen.getByTestId('search-input') as HTMLInputElement };
}

const RESULTS: PostDto[] = [
  makePost({
    id: 'r-1',
    nickname: 'Léa',
    category: 'party',
    content: 'Soirée sur la plage de Boucan Canot avec toute la bande ce soir',
  }),
  makePost({ id: 'r-2', nickname: 'Marc', category: 'love', content: 'La plage au lever du soleil' }),
];

beforeEach(() => {
  localStorage.clear();
  useMoodFilterStore.getState().reload();
  useSearchStore.setState({ query: '' });
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('search', () => {
  it('asks the server 500 ms after the last keystroke, only from 2 characters, among the selected moods', async () => {
    const api = fakeApi({ 'GET /api/search': () => json(200, { results: RESULTS }) });
    useMoodFilterStore.setState({ selected: ['love', 'party'] });
    const { input } = renderSearch();
    // The debounce is checked by moving the clock, not by waiting.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      fireEvent.change(input, { target: { value: 'p' } });
      await act(async () => vi.advanceTimersByTime(SEARCH_DEBOUNCE_MS + 150));
      expect(api.callsTo('GET /api/search')).toHaveLength(0);
      // Keystrokes closer than the debounce keep postponing the request.
      for (const value of ['pl', 'pla', 'plag']) {
        fireEvent.change(input, { target: { value } });
        await act(async () => vi.advanceTimersByTime(120));
      }
      fireEvent.change(input, { target: { value: 'plage' } });
      await act(async () => vi.advanceTimersByTime(SEARCH_DEBOUNCE_MS - 1));
      expect(api.callsTo('GET /api/search')).toHaveLength(0);
      await act(async () => vi.advanceTimersByTime(1));
      expect(api.callsTo('GET /api/search')).toHaveLength(1);
      // The cache tells its observers on a timer of its own: let it run before the real clock returns.
      await act(async () => vi.runOnlyPendingTimers());
    } finally {
      vi.useRealTimers();
    }
    const url = new URL(api.callsTo('GET /api/search')[0]!.url, 'http://x');
    expect(url.searchParams.get('q')).toBe('plage');
    // Canonical order, whatever the order of selection.
    expect(url.searchParams.get('moods')).toBe('party,love');

    const items = await screen.findAllByTestId('search-result');
    expect(items).toHaveLength(2);
    expect(items[0]!.textContent).toContain('Léa');
    expect(items[0]!.textContent).toContain('🎉');
    expect(items.map((el) => el.querySelector('[data-testid="search-result-text"]')!.textContent)).toEqual([
      'Soirée sur la plage de Boucan Canot avec...',
      'La plage au lever du soleil',
    ]);
  });

  it('shows the empty text with the query, and caches answers per query and moods', async () => {
    const api = fakeApi({ 'GET /api/search': () => json(200, { results: [] }) });
    const { input, client } = renderSearch();
    fireEvent.change(input, { target: { value: ' kitesurf ' } });
    const empty = await screen.findByTestId('search-empty', {}, { timeout: 2000 });
    expect(empty.textContent).toBe('Aucune publication trouvée pour "kitesurf"');
    expect(client.getQueryData(['search', 'kitesurf', MOODS.join(',')])).toEqual({ query: 'kitesurf', results: [] });
    expect(client.getQueryCache().find({ queryKey: ['search', 'kitesurf', MOODS.join(',')] })?.options).toMatchObject({
      staleTime: 300_000,
    });
    expect(api.callsTo('GET /api/search')).toHaveLength(1);
  });

  it('moves with the arrows, opens a result with Enter (fetching a post the map does not hold), and closes with Escape', async () => {
    const api = fakeApi({
      'GET /api/search': () => json(200, { results: RESULTS }),
      'GET /api/posts/r-2': () => json(200, { post: RESULTS[1] }),
    });
    const { input, client } = renderSearch();
    fireEvent.focus(input);
    fireEvent.change(input, { target: { value: 'plage' } });
    await screen.findAllByTestId('search-result', {}, { timeout: 2000 });
    expect(input.getAttribute('aria-expanded')).toBe('true');

    // Down, down, down: first, second, and round to the first again.
    fireEvent.keyDown(input, { key: 'ArrowDown' });
    fireEvent.keyDown(input, { key: 'ArrowDown' });
    fireEvent.keyDown(input, { key: 'ArrowDown' });
    const options = screen.getAllByRole('option');
    expect(options.map((o) => o.getAttribute('aria-selected'))).toEqual(['true', 'false']);
    fireEvent.keyDown(input, { key: 'ArrowUp' });
    expect(screen.getAllByRole('option').map((o) => o.getAttribute('aria-selected'))).toEqual(['false', 'true']);
    expect(input.getAttribute('aria-activedescendant')).toBe(options[1]!.id);

    fireEvent.keyDown(input, { key: 'Enter' });
    await waitFor(() => expect(screen.getByTestId('where').textContent).toBe('/|{"focusPostId":"r-2"}'));
    expect(api.callsTo('GET /api/posts/r-2')).toHaveLength(1);
    // The map draws its marker, and its card is cached for the popup.
    expect(findCachedMarker(client, 'r-2')).toMatchObject({ id: 'r-2', nickname: 'Marc', category: 'love' });
    expect(client.getQueryData<{ content: string }>(cardKey('r-2'))?.content).toBe('La plage au lever du soleil');
    expect(screen.queryByTestId('search-results')).toBeNull();

    // Back in the box, the list reopens; Escape closes it, a second Escape clears the box.
    fireEvent.focus(input);
    expect(screen.getByTestId('search-results')).toBeTruthy();
    fireEvent.keyDown(input, { key: 'Escape' });
    expect(screen.queryByTestId('search-results')).toBeNull();
    expect(input.value).toBe('plage');
    fireEvent.keyDown(input, { key: 'Escape' });
    expect(input.value).toBe('');
  });

  it('says when a result has gone meanwhile, instead of moving the map', async () => {
    fakeApi({
      'GET /api/search': () => json(200, { results: RESULTS }),
      'GET /api/posts/r-1': () => json(404, { error: { code: 'post_not_found', message: 'Publication introuvable' } }),
    });
    const { input } = renderSearch();
    fireEvent.change(input, { target: { value: 'plage' } });
    const [first] = await screen.findAllByTestId('search-result', {}, { timeout: 2000 });
    fireEvent.click(first!);
    await waitFor(() => expect(document.body.textContent).not.toContain('focusPostId'));
    const { useToastStore } = await import('../src/ui/toasts/toast-store.ts');
    await waitFor(() =>
      expect(useToastStore.getState().toasts.map((t) => t.message)).toContain('Publication introuvable'),
    );
    expect(screen.getByTestId('where').textContent).toBe('/messages|null');
  });

  it('opens a result that assistive technology focused with Enter, like a press', async () => {
    fakeApi({
      'GET /api/search': () => json(200, { results: RESULTS }),
      'GET /api/posts/r-2': () => json(200, { post: RESULTS[1] }),
    });
    const { input } = renderSearch();
    fireEvent.focus(input);
    fireEvent.change(input, { target: { value: 'plage' } });
    const options = await screen.findAllByRole('option', {}, { timeout: 2000 });
    options[1]!.focus();
    expect(document.activeElement).toBe(options[1]);
    fireEvent.keyDown(options[1]!, { key: 'Enter' });
    await waitFor(() => expect(screen.getByTestId('where').textContent).toBe('/|{"focusPostId":"r-2"}'));
    expect(screen.queryByTestId('search-results')).toBeNull();
  });
});
