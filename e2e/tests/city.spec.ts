/**
 * A city at its real density, drawn by the GPU. Paris at zoom 12 holds a few hundred
 * live posts (one real post, published through the API, and 320 neighbours added to the map's
 * viewport answers: the shared e2e server cannot hold 320 accounts' posts, one live post each,
 * without minutes of sign-ups), on a phone and on a desktop, light and dark. The markers, the
 * 100 m groups and the pulse rings are read from the drawn layers; the real post and a group of
 * five are tapped on the canvas and their popups open. With E2E_SCREENSHOTS=1,
 * screenshots of each (support/screens.ts).
 */
import type { APIRequestContext, Page } from '@playwright/test';
import sharp from 'sharp';
import { PASSWORD, createConfirmedAccount, uniqueEmail } from '../support/auth.ts';
import { drawnMarkers, jumpTo, openMapAt, pulsingPosts, tapMap, waitForStill } from '../support/map.ts';
import { answerJson, serverJson } from '../support/routes.ts';
import { shot } from '../support/screens.ts';
import { expect, test } from '../support/test.ts';

const PARIS = { latitude: 48.8566, longitude: 2.3522 };
/** The real post, at the Buttes-Chaumont; the group of five, at the Parc Montsouris. */
const REAL_SPOT = { latitude: 48.8809, longitude: 2.3828 };
const GROUP_SPOT = { latitude: 48.8221, longitude: 2.3378 };
const REAL_TEXT = 'Pique-nique aux Buttes-Chaumont, on a apporté trop de fraises : passez en prendre !';
const NEIGHBOURS = 320;
const GROUP_SIZE = 5;
/** Neighbours keep this far from the two spots, so a tap there hits only what is meant. */
const CLEAR_KM = 1.2;
const MOODS = ['happy', 'angry', 'party', 'money', 'love'] as const;
const NAMES = [
  'Camille',
  'Léo',
  'Manon',
  'Hugo',
  'Chloé',
  'Lucas',
  'Inès',
  'Nathan',
  'Sarah',
  'Jules',
  'Lina',
  'Adam',
  'Zoé',
  'Gabriel',
  'Jade',
  'Noah',
];
const TEXTS = [
  'Les quais sont magnifiques ce soir',
  'Qui vient boire un verre au canal Saint-Martin ?',
  'Vends vélo de ville, bon état, 80 €',
  'Encore une heure de bouchons sur le périph…',
  'Concert improvisé place de la République !',
  'Je t’aime Paris ❤️',
];
/** Portraits served for the neighbours who have a photo (same origin, as the app's media). */
const PHOTO_COLOURS = ['#f4a261', '#2a9d8f', '#e76f51', '#8ab17d'];

interface Neighbour {
  id: string;
  userId: string;
  category: (typeof MOODS)[number];
  latitude: number;
  longitude: number;
  nickname: string;
  photoUrl: string | null;
  hasPulseEffect: boolean;
  minutesAgo: number;
  content: string;
}

/** A small seeded generator: the same city every run. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const km = (a: { latitude: number; longitude: number }, b: { latitude: number; longitude: number }) =>
  Math.hypot(
    (a.latitude - b.latitude) * 111.2,
    (a.longitude - b.longitude) * 111.2 * Math.cos((a.latitude * Math.PI) / 180),
  );

const uuid = (kind: number, n: number) => `00000000-0000-4000-${8000 + kind}-${String(n).padStart(12, '0')}`;

function neighbours(): Neighbour[] {
  const rand = random(15);
  const out: Neighbour[] = [];
  const make = (n: number, place: { latitude: number; longitude: number }): Neighbour => {
    const withPhoto = rand() < 0.4;
    return {
      id: uuid(1, n),
      userId: uuid(2, n),
      category: MOODS[Math.floor(rand() * MOODS.length)]!,
      ...place,
      nickname: `${NAMES[n % NAMES.length]} ${String.fromCharCode(65 + (n % 26))}.`,
      photoUrl: withPhoto ? `/media/avatars/e2e-city-${n % PHOTO_COLOURS.length}.png` : null,
      hasPulseEffect: rand() < 0.05,
      minutesAgo: Math.floor(2 + rand() * 1300),
      content: TEXTS[n % TEXTS.length]!,
    };
  };
  // Five within 60 m of each other: one 100 m group.
  for (let i = 0; i < GROUP_SIZE; i++)
    out.push(
      make(i + 1, {
        latitude: GROUP_SPOT.latitude + (rand() - 0.5) * 0.0005,
        longitude: GROUP_SPOT.longitude + (rand() - 0.5) * 0.0007,
      }),
    );
  while (out.length < NEIGHBOURS) {
    // Gaussian around the centre, as people gather (Box–Muller).
    const r = Math.sqrt(-2 * Math.log(1 - rand()));
    const angle = 2 * Math.PI * rand();
    const place = {
      latitude: PARIS.latitude + r * Math.cos(angle) * 0.022,
      longitude: PARIS.longitude + r * Math.sin(angle) * 0.034,
    };
    if (km(place, REAL_SPOT) < CLEAR_KM || km(place, GROUP_SPOT) < CLEAR_KM) continue;
    out.push(make(out.length + 1, place));
  }
  return out;
}

const CITY = neighbours();

async function portrait(colour: string): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="160" height="160">
    <rect width="160" height="160" fill="${colour}"/>
    <circle cx="80" cy="64" r="32" fill="#ffe0c2"/>
    <rect x="36" y="104" width="88" height="70" rx="40" fill="#33415c"/>
  </svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

const NO_STORE = { 'cache-control': 'no-store' };
let serverNow = Date.now();
const createdAt = (minutesAgo: number) => new Date(serverNow - minutesAgo * 60_000).toISOString();

/** The city added to the map's feed: its viewport answers, its group cards, the portraits. */
async function addCity(page: Page): Promise<void> {
  const photos = await Promise.all(PHOTO_COLOURS.map(portrait));
  await page.route(/\/media\/avatars\/e2e-city-(\d)\.png/, (route) =>
    route.fulfill({ contentType: 'image/png', body: photos[Number(/e2e-city-(\d)/.exec(route.request().url())![1])]! }),
  );
  await page.route(/\/api\/posts\/viewport\?/, async (route) => {
    const body = await serverJson<{ points: unknown[]; serverTime: string }>(route);
    if (!body) return;
    serverNow = Date.parse(body.serverTime);
    const q = new URL(route.request().url()).searchParams;
    const [west, south, east, north] = ['west', 'south', 'east', 'north'].map((k) => Number(q.get(k)));
    const inView =
      Number(q.get('zoom')) >= 9
        ? CITY.filter(
            (p) => p.longitude >= west! && p.longitude <= east! && p.latitude >= south! && p.latitude <= north!,
          )
        : [];
    const markers = inView.map(({ content: _content, minutesAgo, ...m }) => ({
      ...m,
      createdAt: createdAt(minutesAgo),
    }));
    await answerJson(route, { ...body, points: [...body.points, ...markers] }, NO_STORE);
  });
  await page.route(/\/api\/posts\/cards\?/, async (route) => {
    const body = await serverJson<{ posts: Array<{ createdAt: string }> }>(route);
    if (!body) return;
    const asked = new Set(new URL(route.request().url()).searchParams.get('ids')?.split(',') ?? []);
    const cards = CITY.filter((p) => asked.has(p.id)).map((p) => ({
      id: p.id,
      userId: p.userId,
      category: p.category,
      content: p.content,
      isVoiceOnly: false,
      latitude: p.latitude,
      longitude: p.longitude,
      nickname: p.nickname,
      createdAt: createdAt(p.minutesAgo),
      imageUrl: null,
      thumbnailUrl: null,
      mediaUrls: [],
      audioUrl: null,
      audioDuration: null,
      hasPulseEffect: p.hasPulseEffect,
      commentsCount: 0,
      likesCount: 0,
      isLikedByUser: false,
      author: {
        username: p.nickname,
        photoUrl: p.photoUrl,
        isPremium: false,
        isPro: false,
        isPlus: false,
        isMulti: false,
      },
    }));
    const posts = [...body.posts, ...cards].sort((a, b) => b.createdAt.localeCompare(a.createdAt));
    await answerJson(route, { posts }, NO_STORE);
  });
}

async function publish(request: APIRequestContext, email: string): Promise<{ id: string; token: string }> {
  const login = await request.post('/api/auth/login', { data: { email, password: PASSWORD } });
  expect(login.status(), await login.text()).toBe(200);
  const { accessToken: token } = (await login.json()) as { accessToken: string };
  const created = await request.post('/api/posts', {
    data: { category: 'love', content: REAL_TEXT, ...REAL_SPOT },
    headers: { Authorization: `Bearer ${token}` },
  });
  expect(created.status(), await created.text()).toBe(201);
  return { id: ((await created.json()) as { post: { id: string } }).post.id, token };
}

test.describe
  .serial('a city at its real density', () => {
    let real: { id: string; token: string } | null = null;

    test.beforeAll(async ({ request }) => {
      const email = uniqueEmail('paris');
      await createConfirmedAccount(request, { email, firstName: 'Margaux', lastName: 'Lefèvre' });
      real = await publish(request, email);
    });

    // The journeys share one server: the real post leaves it.
    test.afterAll(async ({ request }) => {
      if (real) await request.delete(`/api/posts/${real.id}`, { headers: { Authorization: `Bearer ${real.token}` } });
    });

    for (const [name, viewport] of [
      ['mobile', { width: 390, height: 844 }],
      ['desktop', { width: 1440, height: 900 }],
    ] as const) {
      for (const scheme of ['light', 'dark'] as const) {
        test(`Paris at zoom 12, ${name}, ${scheme}: hundreds of markers, a post popup, a 100 m group popup`, async ({
          browser,
        }) => {
          const ctx = await browser.newContext({
            viewport,
            locale: 'fr-FR',
            timezoneId: 'Europe/Paris',
            colorScheme: scheme,
            isMobile: name === 'mobile',
            hasTouch: name === 'mobile',
            extraHTTPHeaders: {
              'x-forwarded-for': `203.0.115.${name === 'mobile' ? 1 : 2}${scheme === 'light' ? 1 : 2}`,
            },
          });
          const page = await ctx.newPage();
          await addCity(page);
          await openMapAt(page, { ...PARIS, zoom: 12 });
          await expect(page.getByTestId('map-canvas')).toHaveAttribute('data-theme', scheme);
          await waitForStill(page);

          // Every post in view is drawn: alone, or counted in its 100 m group.
          const inView = await page.evaluate(() => {
            const b = window.__MOODMAP_MAP__!.getBounds();
            return { west: b.getWest(), south: b.getSouth(), east: b.getEast(), north: b.getNorth() };
          });
          const expected =
            CITY.filter(
              (p) =>
                p.longitude > inView.west &&
                p.longitude < inView.east &&
                p.latitude > inView.south &&
                p.latitude < inView.north,
            ).length + 1;
          expect(expected).toBeGreaterThan(name === 'mobile' ? 100 : 250);
          await expect
            .poll(async () => (await drawnMarkers(page)).reduce((n, m) => n + m.n, 0), { timeout: 20_000 })
            // Markers whose centre is just outside the canvas are not counted by either side.
            .toBeGreaterThanOrEqual(expected - 6);
          const drawn = await drawnMarkers(page);
          expect(drawn.filter((m) => m.kind === 'g').length).toBeGreaterThan(0);
          // The pulse rings are drawn for the pulse posts in view, and for no other.
          const pulsing = await pulsingPosts(page);
          const pulsePosts = drawn.filter((m) => m.kind === 'p' && m.pulse).map((m) => m.pid!);
          expect(pulsePosts.length).toBeGreaterThan(0);
          expect([...pulsing].sort()).toEqual([...pulsePosts].sort());
          await shot(page, `city-paris-${name}-${scheme}`);

          // The real post: a tap on its marker opens its popup.
          await jumpTo(page, { ...REAL_SPOT, zoom: 14 });
          await waitForStill(page);
          await expect.poll(async () => (await drawnMarkers(page)).some((m) => m.pid === real!.id)).toBe(true);
          const marker = (await drawnMarkers(page)).find((m) => m.pid === real!.id)!;
          expect(marker).toMatchObject({ kind: 'p', mood: 'love', pulse: false });
          await tapMap(page, marker);
          const popup = page.getByTestId('post-popup');
          await expect(popup).toHaveAttribute('data-post-id', real!.id);
          await expect(popup).toContainText(REAL_TEXT);
          await expect(popup).toContainText('Margaux');
          await shot(page, `city-paris-post-popup-${name}-${scheme}`);
          await page.keyboard.press('Escape');
          await expect(popup).toHaveCount(0);

          // The group of five: one marker with its count; its popup lists the five.
          await jumpTo(page, { ...GROUP_SPOT, zoom: 14 });
          await waitForStill(page);
          await expect
            .poll(async () => (await drawnMarkers(page)).filter((m) => m.kind === 'g').map((m) => m.n))
            .toContain(GROUP_SIZE);
          const group = (await drawnMarkers(page)).find((m) => m.kind === 'g' && m.n === GROUP_SIZE)!;
          await tapMap(page, group);
          const list = page.getByTestId('cluster-popup');
          await expect(list).toHaveAttribute('data-count', String(GROUP_SIZE));
          await expect(list.getByTestId('cluster-item')).toHaveCount(GROUP_SIZE);
          for (const p of CITY.slice(0, GROUP_SIZE))
            await expect(list.locator(`[data-testid="cluster-item"][data-post-id="${p.id}"]`)).toContainText(
              p.nickname,
            );
          // The cards arrived: each row has its text.
          await expect(list).toContainText(CITY[0]!.content);
          await shot(page, `city-paris-group-popup-${name}-${scheme}`);
          await ctx.close();
        });
      }
    }
  });
