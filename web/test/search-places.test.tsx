// @vitest-environment jsdom
/** Places in the top bar's search, above the posts, and the picker's place search. */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryRouter, RouterProvider, useLocation } from 'react-router';
import type { Map as MapLibreMap } from 'maplibre-gl';
import type { PlaceDto, PostDto } from '@moodmap/core';
import { SearchBox } from '../src/features/search/SearchBox.tsx';
import { PlaceSearch } from '../src/features/search/PlaceSearch.tsx';
import { useSearchStore } from '../src/features/search/search-store.ts';
import { useMapStore } from '../src/features/map/map-store.ts';
import { useMoodFilterStore } from '../src/features/moods/mood-filter-store.ts';
import { deferred, fakeApi, json } from './support/auth-fixtures.ts';
import { makePost } from './support/interactions.tsx';

const LYON: PlaceDto = {
  id: '2996944',
  name: 'Lyon',
  region: 'Auvergne-Rhône-Alpes',
  country: 'FR',
  countryName: 'France',
  latitude: 45.74846,
  longitude: 4.84671,
  population: 522969,
  zoom: 11,
};
const LYONS: PlaceDto = {
  ...LYON,
  id: '2997577',
  name: 'Lyons-la-Forêt',
  region: 'Normandie',
  latitude: 49.39929,
  longitude: 1.47689,
  population: 743,
  zoom: 14,
};
const POSTS: PostDto[] = [makePost({ id: 'p-1', nickname: 'Léa', content: 'Fête des lumières à Lyon ce soir' })];

function Where() {
  const location = useLocation();
  return <p data-testid="where">{location.pathname}</p>;
}

function renderAt(element: React.ReactNode, initial = '/messages') {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const router = createMemoryRouter([{ path: '*', element }], { initialEntries: [initial] });
  render(
    <QueryClientProvider client={client}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
}

/** The top bar on /messages, answering posts and places, with `query` typed in it. */
function typeInTopBar(query: string, posts: PostDto[], places: PlaceDto[] | Response) {
  const api = fakeApi({
    'GET /api/search': () => json(200, { results: posts }),
    'GET /api/geo/places': () => (places instanceof Response ? places : json(200, { places })),
  });
  renderAt(
    <>
      <SearchBox />
      <Where />
    </>,
  );
  const input = screen.getByTestId('search-input');
  fireEvent.focus(input);
  fireEvent.change(input, { target: { value: query } });
  return { api, input };
}

/** The main map as the search sees it: what it is asked to do. */
function fakeMap() {
  const flyTo = vi.fn();
  useMapStore.setState({ map: { flyTo } as unknown as MapLibreMap });
  return flyTo;
}

beforeEach(() => {
  localStorage.clear();
  useMoodFilterStore.getState().reload();
  useSearchStore.setState({ query: '' });
});
afterEach(() => {
  cleanup();
  useMapStore.setState({ map: null });
  vi.unstubAllGlobals();
});

describe('top bar place search', () => {
  it("lists the places found under 'Lieux', above the posts under 'Publications', from one debounced request each", async () => {
    const { api } = typeInTopBar('LYON', POSTS, [LYON, LYONS]);
    const places = await screen.findAllByTestId('place-result', {}, { timeout: 2000 });
    expect(places.map((p) => p.textContent)).toEqual([
      'LyonAuvergne-Rhône-Alpes, France',
      'Lyons-la-ForêtNormandie, France',
    ]);
    const post = await screen.findByTestId('search-result');
    const placesHeading = screen.getByText('Lieux');
    const postsHeading = screen.getByText('Publications');
    const follows = (a: Node, b: Node) => Boolean(a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING);
    expect(follows(placesHeading, places[0]!)).toBe(true);
    expect(follows(places[1]!, postsHeading)).toBe(true);
    expect(follows(postsHeading, post)).toBe(true);

    const [call, ...more] = api.callsTo('GET /api/geo/places');
    expect(more).toHaveLength(0);
    const url = new URL(call!.url, 'http://x');
    expect(url.searchParams.get('q')).toBe('LYON');
    expect(url.searchParams.get('limit')).toBe('5');
  });

  it("flies the map to the place chosen, at the place's zoom, back on the map screen, and closes the list", async () => {
    const flyTo = fakeMap();
    typeInTopBar('lyon', [], [LYON, LYONS]);
    const [, second] = await screen.findAllByTestId('place-result', {}, { timeout: 2000 });
    // No post matched: the posts' section says so under its heading.
    expect((await screen.findByTestId('search-empty')).textContent).toBe('Aucune publication trouvée pour "lyon"');
    fireEvent.click(second!);
    expect(flyTo).toHaveBeenCalledTimes(1);
    expect(flyTo).toHaveBeenCalledWith(
      expect.objectContaining({ center: [LYONS.longitude, LYONS.latitude], zoom: 14 }),
    );
    expect(screen.queryByTestId('search-results')).toBeNull();
    await waitFor(() => expect(screen.getByTestId('where').textContent).toBe('/'));
  });

  it('counts places then posts with the arrows, and Enter picks the highlighted one', async () => {
    const flyTo = fakeMap();
    const { input } = typeInTopBar('lyon', POSTS, [LYON]);
    await screen.findByTestId('place-result', {}, { timeout: 2000 });
    await screen.findByTestId('search-result');
    const selected = () => screen.getAllByRole('option').map((o) => o.getAttribute('aria-selected'));
    fireEvent.keyDown(input, { key: 'ArrowDown' });
    expect(selected()).toEqual(['true', 'false']);
    expect(input.getAttribute('aria-activedescendant')).toBe(screen.getByTestId('place-result').id);
    fireEvent.keyDown(input, { key: 'ArrowDown' });
    expect(selected()).toEqual(['false', 'true']);
    fireEvent.keyDown(input, { key: 'ArrowUp' });
    fireEvent.keyDown(input, { key: 'Enter' });
    expect(flyTo).toHaveBeenCalledWith(expect.objectContaining({ center: [LYON.longitude, LYON.latitude], zoom: 11 }));
  });

  it('keeps the posts when the place search fails', async () => {
    typeInTopBar(
      'lyon',
      POSTS,
      json(500, { error: { code: 'internal_error', message: 'Une erreur est survenue. Veuillez réessayer.' } }),
    );
    await screen.findByTestId('search-result', {}, { timeout: 2000 });
    expect(screen.queryByText('Lieux')).toBeNull();
    expect(screen.queryByTestId('search-error')).toBeNull();
  });
});

describe('the location picker’s place search', () => {
  it('finds places as the top bar does and hands the one chosen to the picker', async () => {
    const api = fakeApi({ 'GET /api/geo/places': () => json(200, { places: [LYON] }) });
    const onPick = vi.fn();
    renderAt(<PlaceSearch onPick={onPick} />);
    const input = screen.getByTestId('place-search-input');
    expect(input.getAttribute('placeholder')).toBe('Rechercher un lieu...');
    fireEvent.focus(input);
    fireEvent.change(input, { target: { value: 'l' } });
    fireEvent.change(input, { target: { value: 'ly' } });
    await screen.findByTestId('place-result', {}, { timeout: 2000 });
    expect(api.callsTo('GET /api/geo/places')).toHaveLength(1);
    fireEvent.keyDown(input, { key: 'Enter' });
    expect(onPick).toHaveBeenCalledWith(LYON);
    expect(screen.queryByTestId('place-search-results')).toBeNull();
  });

  it('picks the first place of the answer when Enter is pressed before the answer is in', async () => {
    const answer = deferred<Response>();
    fakeApi({ 'GET /api/geo/places': () => answer.promise });
    const onPick = vi.fn();
    renderAt(<PlaceSearch onPick={onPick} />);
    const input = screen.getByTestId('place-search-input');
    fireEvent.focus(input);
    fireEvent.change(input, { target: { value: 'lyon' } });
    fireEvent.keyDown(input, { key: 'Enter' });
    expect(onPick).not.toHaveBeenCalled();
    answer.resolve(json(200, { places: [LYON, LYONS] }));
    await waitFor(() => expect(onPick).toHaveBeenCalledWith(LYON));
    expect(onPick).toHaveBeenCalledTimes(1);
    expect(screen.queryByTestId('place-search-results')).toBeNull();
  });

  it('says when no place matches', async () => {
    fakeApi({ 'GET /api/geo/places': () => json(200, { places: [] }) });
    renderAt(<PlaceSearch onPick={vi.fn()} />);
    const input = screen.getByTestId('place-search-input');
    fireEvent.focus(input);
    fireEvent.change(input, { target: { value: 'zzyzx' } });
    expect((await screen.findByTestId('place-search-empty', {}, { timeout: 2000 })).textContent).toBe(
      'Aucun lieu trouvé pour "zzyzx"',
    );
  });
});
