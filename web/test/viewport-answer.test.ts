/**
 * The map feed's answers are read without zod (the map waits for them): each reader must
 * accept exactly what core's schema accepts and read the same value from it, so a malformed
 * answer is still refused.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { changesResponseSchema, markerSchema, viewportResponseSchema } from '@moodmap/core/schemas';
import { readChangesAnswer, readMarkerAnswer, readViewportAnswer } from '../src/features/posts/viewport-answer.ts';
import { fetchViewport } from '../src/features/posts/viewport-query.ts';

const marker = {
  id: 'p1',
  userId: 'u1',
  category: 'happy',
  latitude: 48.857,
  longitude: 2.352,
  nickname: 'Léa',
  hasPulseEffect: false,
  createdAt: '2026-11-25T03:00:00.000Z',
  photoUrl: null,
};
const cluster = {
  id: 'c1',
  latitude: 10,
  longitude: 20,
  count: 7,
  moods: { happy: 3, angry: 0, party: 2, money: 1, love: 1 },
};
const viewport = { points: [marker], clusters: [cluster], cursor: 'cur', serverTime: '2026-11-25T03:00:01.000Z' };
const changes = { created: [marker], deleted: ['p2'], cursor: 'cur', serverTime: '2026-11-25T03:00:01.000Z' };

const markers: Array<[string, unknown]> = [
  ['a marker', marker],
  ['a photo URL', { ...marker, photoUrl: '/api/media/a.webp', hasPulseEffect: true }],
  ['extra fields (a full post)', { ...marker, content: 'Salut', approximate: true }],
  ['an unknown mood', { ...marker, category: 'sad' }],
  ['a latitude in a string', { ...marker, latitude: '48.8' }],
  ['an infinite longitude', { ...marker, longitude: Number.POSITIVE_INFINITY }],
  ['a NaN latitude', { ...marker, latitude: Number.NaN }],
  ['a missing photo', { ...marker, photoUrl: undefined }],
  ['a numeric id', { ...marker, id: 1 }],
  ['a pulse flag that is a string', { ...marker, hasPulseEffect: 'false' }],
  ['no nickname', { ...marker, nickname: undefined }],
  ['an array', [marker]],
  ['null', null],
];

const viewports: Array<[string, unknown]> = [
  ['an answer', viewport],
  ['an empty answer', { points: [], clusters: [], cursor: '', serverTime: '' }],
  ['extra fields', { ...viewport, total: 3, points: [{ ...marker, extra: 1 }] }],
  ['a cluster missing a mood', { ...viewport, clusters: [{ ...cluster, moods: { happy: 7 } }] }],
  ['a cluster with an unknown mood', { ...viewport, clusters: [{ ...cluster, moods: { ...cluster.moods, sad: 1 } }] }],
  ['a cluster count that is a string', { ...viewport, clusters: [{ ...cluster, count: '7' }] }],
  ['a mood count that is null', { ...viewport, clusters: [{ ...cluster, moods: { ...cluster.moods, love: null } }] }],
  ['moods as an array', { ...viewport, clusters: [{ ...cluster, moods: [1, 2, 3, 4, 5] }] }],
  ['one bad point among good ones', { ...viewport, points: [marker, { ...marker, category: 'sad' }] }],
  ['points that are no array', { ...viewport, points: { 0: marker } }],
  ['no clusters', { points: [marker], cursor: 'cur', serverTime: 'now' }],
  ['a numeric cursor', { ...viewport, cursor: 3 }],
  ['no server time', { points: [], clusters: [], cursor: 'cur' }],
  ['an error body', { error: { code: 'internal_error', message: 'Une erreur est survenue. Veuillez réessayer.' } }],
  ['a string', 'viewport'],
  ['null', null],
];

const changeAnswers: Array<[string, unknown]> = [
  ['an answer', changes],
  ['nothing new', { created: [], deleted: [], cursor: 'c', serverTime: 't' }],
  ['a numeric deleted id', { ...changes, deleted: [2] }],
  ['a bad created marker', { ...changes, created: [{ ...marker, latitude: null }] }],
  ['no deleted list', { created: [], cursor: 'c', serverTime: 't' }],
  ['an array', []],
];

describe('map feed readers (features/posts/viewport-answer.ts)', () => {
  it.each(markers)('readMarkerAnswer agrees with core’s markerSchema on %s', (_, value) => {
    const parsed = markerSchema.safeParse(value);
    expect(readMarkerAnswer(value)).toEqual(parsed.success ? parsed.data : null);
  });

  it.each(viewports)('readViewportAnswer agrees with core’s viewportResponseSchema on %s', (_, value) => {
    const parsed = viewportResponseSchema.safeParse(value);
    expect(readViewportAnswer(value)).toEqual(parsed.success ? parsed.data : null);
  });

  it.each(changeAnswers)('readChangesAnswer agrees with core’s changesResponseSchema on %s', (_, value) => {
    const parsed = changesResponseSchema.safeParse(value);
    expect(readChangesAnswer(value)).toEqual(parsed.success ? parsed.data : null);
  });

  it('keeps only the fields the schema declares', () => {
    const read = readViewportAnswer({ ...viewport, points: [{ ...marker, content: 'texte' }] });
    expect(read?.points[0]).not.toHaveProperty('content');
  });
});

describe("the map's viewport request (features/posts/viewport-query.ts)", () => {
  afterEach(() => vi.unstubAllGlobals());
  const answering = (body: unknown) =>
    vi.stubGlobal(
      'fetch',
      vi.fn(
        async () =>
          new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json' } }),
      ),
    );

  it('draws what a valid answer holds', async () => {
    answering(viewport);
    const feed = await fetchViewport([2, 48, 3, 49], 12, []);
    expect(feed.points).toEqual([marker]);
    expect(feed.cursor).toBe('cur');
  });

  it('refuses a malformed answer as a failure (500, the generic French text) instead of drawing it', async () => {
    answering({ ...viewport, points: [{ ...marker, latitude: 'x' }] });
    await expect(fetchViewport([2, 48, 3, 49], 12, [])).rejects.toMatchObject({
      status: 500,
      code: 'internal_error',
      message: 'Une erreur est survenue. Veuillez réessayer.',
    });
  });
});
