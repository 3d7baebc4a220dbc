// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, render, screen } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryRouter, RouterProvider } from 'react-router';
import {
  type Context,
  type Drawn,
  parseImageId,
  postImageId,
  provideImage,
} from '../src/features/map/markers/marker-images.ts';
import { PostPopup } from '../src/features/map/markers/PostPopup.tsx';
import { toMarker } from '../src/features/posts/post-types.ts';
import { prefetchPostCard } from '../src/features/posts/post-card-query.ts';
import { deferred, fakeApi, json } from './support/auth-fixtures.ts';
import { makeAuthor, makePost } from './support/posts.ts';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

/** A 2D context that records what was drawn: the text written and the images drawn. */
function recordingCanvas() {
  const texts: string[] = [];
  const images: unknown[] = [];
  const make = (width: number, height: number): Context => {
    const noop = () => undefined;
    return {
      beginPath: noop,
      arc: noop,
      fill: noop,
      stroke: noop,
      save: noop,
      restore: noop,
      clip: noop,
      scale: noop,
      drawImage: ((image: unknown) => void images.push(image)) as Context['drawImage'],
      fillText: ((text: string) => void texts.push(text)) as Context['fillText'],
      createLinearGradient: (() => ({ addColorStop: noop })) as unknown as Context['createLinearGradient'],
      getImageData: (() => ({
        data: new Uint8ClampedArray(width * height * 4),
        width,
        height,
      })) as unknown as Context['getImageData'],
      fillStyle: '',
      strokeStyle: '',
      lineWidth: 1,
      font: '',
      textAlign: '',
      textBaseline: '',
      shadowColor: '',
      shadowBlur: 0,
      shadowOffsetY: 0,
    };
  };
  return { make, texts, images };
}

function fakeAtlas() {
  const added = new Map<string, Drawn>();
  const updated: string[] = [];
  return {
    added,
    updated,
    hasImage: (id: string) => added.has(id),
    addImage: (id: string, image: Drawn) => void added.set(id, image),
    updateImage: (id: string) => void updated.push(id),
    triggerRepaint: () => undefined,
  };
}

describe('marker pictures drawn into the atlas on demand', () => {
  it('reads every id it writes, URLs with colons included', () => {
    const id = postImageId('dark', 'love', 'Léa Hoarau', 'https://cdn.example/u/1.webp');
    expect(parseImageId(id)).toEqual({
      kind: 'post',
      theme: 'dark',
      mood: 'love',
      initials: 'LH',
      photoUrl: 'https://cdn.example/u/1.webp',
    });
    expect(parseImageId('mmg:light:12')).toEqual({ kind: 'group', theme: 'light', count: 12 });
    expect(parseImageId('mma:dark:15400')).toEqual({ kind: 'aggregate', theme: 'dark', count: 15400 });
    expect(parseImageId('road-sign')).toBeNull();
  });

  it('draws the initials at once, then the photo when it loads', async () => {
    const canvas = recordingCanvas();
    const atlas = fakeAtlas();
    const photo = deferred<HTMLImageElement | null>();
    const id = postImageId('light', 'happy', 'Noa Payet', '/media/noa.webp');
    expect(provideImage(atlas, id, 2, canvas.make, () => photo.promise)).toBe(true);
    expect(atlas.added.has(id)).toBe(true);
    expect(canvas.texts).toContain('NP');
    expect(canvas.images).toHaveLength(0);
    const img = { width: 10, height: 10 } as unknown as HTMLImageElement;
    await act(async () => photo.resolve(img));
    expect(canvas.images).toEqual([img]);
    expect(atlas.updated).toEqual([id]);
  });

  it('keeps the initials when the photo fails, and draws counts for clusters', async () => {
    const canvas = recordingCanvas();
    const atlas = fakeAtlas();
    const id = postImageId('dark', 'angry', 'marc', '/media/broken.webp');
    provideImage(atlas, id, 1, canvas.make, async () => null);
    await act(async () => undefined);
    expect(canvas.texts).toContain('M');
    expect(atlas.updated).toEqual([]);
    provideImage(atlas, 'mma:light:15400', 1, canvas.make);
    provideImage(atlas, 'mmg:light:3', 1, canvas.make);
    expect(canvas.texts).toEqual(expect.arrayContaining(['15k', '3']));
    expect(provideImage(atlas, 'not-ours', 1, canvas.make)).toBe(false);
  });
});

describe('the popup paints from the marker, then shows the card read on open', () => {
  it('shows nickname and mood at once, then the text from GET /api/posts/:id, read once', async () => {
    const card = makePost({
      id: 'p-9',
      nickname: 'Léa',
      content: 'Concert ce soir au Barachois',
      author: makeAuthor('Léa'),
    });
    const answer = deferred<Response>();
    const api = fakeApi({ 'GET /api/posts/p-9': () => answer.promise });
    const client = new QueryClient();
    const router = createMemoryRouter([
      {
        path: '/',
        element: <PostPopup marker={toMarker(card)} now={new Date('2026-03-01T10:05:00Z')} onClose={() => undefined} />,
      },
    ]);
    render(
      <QueryClientProvider client={client}>
        <RouterProvider router={router} />
      </QueryClientProvider>,
    );
    const popup = screen.getByTestId('post-popup');
    expect(popup.getAttribute('aria-busy')).toBe('true');
    expect(popup.textContent).toContain('Léa');
    expect(popup.textContent).toContain('Joyeux');
    expect(screen.queryByTestId('post-text')).toBeNull();
    await act(async () => answer.resolve(json(200, { post: card })));
    expect(await screen.findByTestId('post-text')).toHaveProperty('textContent', 'Concert ce soir au Barachois');
    expect(api.callsTo('GET /api/posts/p-9')).toHaveLength(1);
  });

  it('shows the card whose request started with the tap, before the popup existed: one request', async () => {
    const card = makePost({
      id: 'p-7',
      nickname: 'Noa',
      content: 'Marché de nuit à Saint-Pierre',
      author: makeAuthor('Noa'),
    });
    const answer = deferred<Response>();
    const api = fakeApi({ 'GET /api/posts/p-7': () => answer.promise });
    const client = new QueryClient();
    prefetchPostCard(client, 'p-7');
    await act(async () => undefined);
    expect(api.callsTo('GET /api/posts/p-7')).toHaveLength(1);
    const router = createMemoryRouter([
      {
        path: '/',
        element: <PostPopup marker={toMarker(card)} now={new Date('2026-03-01T10:05:00Z')} onClose={() => undefined} />,
      },
    ]);
    render(
      <QueryClientProvider client={client}>
        <RouterProvider router={router} />
      </QueryClientProvider>,
    );
    expect(screen.getByTestId('post-popup').getAttribute('aria-busy')).toBe('true');
    await act(async () => answer.resolve(json(200, { post: card })));
    expect(await screen.findByTestId('post-text')).toHaveProperty('textContent', 'Marché de nuit à Saint-Pierre');
    expect(api.callsTo('GET /api/posts/p-7')).toHaveLength(1);
  });
});
