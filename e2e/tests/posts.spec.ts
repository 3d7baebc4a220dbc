/**
 * Posts on the map. A signs in and publishes a post with text and an image at
 * the picker's default place (the west coast of La Réunion); B, a visitor in another browser, sees the
 * marker arrive without reloading and opens it; A cannot publish a second post; A deletes it and
 * it leaves B's map; a point at sea is refused. The map's markers and cluster popup, and the
 * create page, desktop and mobile, light and dark.
 */
import type { Browser, Page, Route } from '@playwright/test';
import sharp from 'sharp';
import { appReady, createConfirmedAccount, signInFromHome, uniqueEmail } from '../support/auth.ts';
import {
  camera,
  colourShareAround,
  drawnMarkers,
  expectPostMarker,
  openMapAt,
  postMarker,
  pulsingPosts,
  settle,
  tapMap,
  tapPost,
  waitForMap,
  waitForStill,
} from '../support/map.ts';
import { answerJson, serverJson } from '../support/routes.ts';
import { clientAddresses, expect, test } from '../support/test.ts';

// With motion, unlike the other journeys (playwright.config.ts): here the camera flies to a post.
test.use({ reducedMotion: 'no-preference' });

const ACTIVE_TEXT = "Vous avez déjà une publication active. Supprimez-la avant d'en créer une nouvelle.";
const SEA_TEXT = 'Publications autorisées uniquement sur terre (îles comprises)';
const REUNION = { latitude: -21.0667, longitude: 55.2167 };
const POST_TEXT = 'Coucher de soleil sur Boucan Canot, toute la plage est en fête ce soir !';

/** Each browser of these journeys is its own client address (the server trusts X-Forwarded-For, support/test.ts). */
const clientAddress = clientAddresses('203.0.113');

/** Scrolls the create panel to its end: picker, pulse box and info bar. */
async function scrollPanelToEnd(page: Page): Promise<void> {
  await page.getByTestId('create-form').evaluate((form) => {
    const scroller = form.closest<HTMLElement>('.overflow-y-auto');
    if (scroller) scroller.scrollTop = scroller.scrollHeight;
  });
}

async function testImage(): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="960" height="640">
    <defs><linearGradient id="g" x1="0" y1="0" x2="0" y2="1">
      <stop offset="0" stop-color="#ff9a3c"/><stop offset="0.55" stop-color="#ff5e62"/><stop offset="1" stop-color="#2b1055"/>
    </linearGradient></defs>
    <rect width="960" height="640" fill="url(#g)"/>
    <circle cx="480" cy="400" r="120" fill="#ffd56b"/>
    <rect y="430" width="960" height="210" fill="#1b2a49"/>
  </svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

test.describe
  .serial('posts on the map', () => {
    let browserRef: Browser;
    let pageA: Page;
    let pageB: Page;
    let postId = '';
    const email = uniqueEmail('poster');

    test.beforeAll(async ({ browser, request }) => {
      browserRef = browser;
      await createConfirmedAccount(request, { email, firstName: 'Léa', lastName: 'Hoarau' });
      // Each page has a browser context of its own, closed with it.
      pageA = await browser.newPage({
        viewport: { width: 1440, height: 900 },
        locale: 'fr-FR',
        timezoneId: 'Indian/Reunion',
        extraHTTPHeaders: clientAddress(),
      });
      pageB = await browser.newPage({
        viewport: { width: 1440, height: 900 },
        locale: 'fr-FR',
        timezoneId: 'Europe/Paris',
        extraHTTPHeaders: clientAddress(),
      });
    });

    test.afterAll(async () => {
      await pageA?.close();
      await pageB?.close();
    });

    test('A publishes text and an image on land; the map centres on it; B sees it arrive live and opens it', async () => {
      // B, a visitor, watches La Réunion before anything is published.
      await openMapAt(pageB, { ...REUNION, zoom: 11 });
      await waitForStill(pageB);
      expect(await drawnMarkers(pageB)).toEqual([]);
      const feedCallsB: string[] = [];
      pageB.on('request', (r) => {
        // The map's feed: its viewport answers and the fallback changes poll.
        if (/^\/api\/posts(\/viewport|\/changes)?$/.test(new URL(r.url()).pathname)) feedCallsB.push(r.url());
      });

      await pageA.emulateMedia({ colorScheme: 'light' });
      await signInFromHome(pageA, email);
      await pageA.getByTestId('nav-create').click();
      const form = pageA.getByTestId('create-form');
      await expect(form).toBeVisible();
      await expect(form).toContainText('Durée : 24h');
      await expect(form).toContainText('Limite : 1 à la fois');
      // No credit yet: the purchase box with the price, not the toggle.
      await expect(pageA.getByTestId('pulse-purchase')).toContainText('2,50 €');
      await expect(pageA.getByTestId('pulse-toggle')).toHaveCount(0);

      // Client validation: the mood first, then something to say.
      await pageA.getByTestId('create-submit').click();
      await expect(pageA.getByTestId('create-error')).toHaveText('Catégorie invalide');
      await pageA.getByTestId('create-mood-party').click();
      await pageA.getByTestId('create-submit').click();
      await expect(pageA.getByTestId('create-error')).toHaveText(
        'Veuillez ajouter du contenu, une image ou un message vocal',
      );

      await pageA.getByTestId('create-content').fill(POST_TEXT);
      await expect(pageA.getByTestId('create-counter')).toHaveText(`${[...POST_TEXT].length}/500`);
      await pageA
        .getByTestId('create-image-input')
        .setInputFiles({ name: 'barachois.png', mimeType: 'image/png', buffer: await testImage() });
      await expect(pageA.getByTestId('create-image-preview')).toBeVisible();

      // The picker starts on Saint-Denis de La Réunion, which the land check accepts.
      const picker = pageA.getByTestId('location-picker');
      await expect(picker).toHaveAttribute('data-map-loaded', 'true', { timeout: 45_000 });
      await expect(picker).toHaveAttribute('data-latitude', String(REUNION.latitude));
      await expect(picker).toHaveAttribute('data-longitude', String(REUNION.longitude));
      await expect(pageA.getByTestId('land-status')).toHaveAttribute('data-state', 'land');
      await scrollPanelToEnd(pageA);

      const callsBefore = feedCallsB.length;
      await pageA.getByTestId('create-submit').click();

      // A lands on the map, centred on the new post at zoom 16, its popup open.
      await expect(pageA).toHaveURL(/127\.0\.0\.1:\d+\/$/);
      const popup = pageA.getByTestId('post-popup');
      await expect(popup).toBeVisible();
      await expect(popup).toContainText(POST_TEXT);
      await expect(popup).toContainText('Fête');
      postId = (await popup.getAttribute('data-post-id')) ?? '';
      expect(postId).not.toBe('');
      await expect.poll(async () => (await camera(pageA)).zoom).toBeGreaterThan(15.9);
      await settle(pageA);
      // Its marker is drawn on screen, at the post's place, in its mood, without the pulse.
      const markerA = await expectPostMarker(pageA, postId);
      expect(markerA).toMatchObject({ kind: 'p', mood: 'party', pulse: false });
      expect(await pulsingPosts(pageA)).not.toContain(postId);
      // The ring is painted in the mood colour (party: #0CC0DF), on the pixels around the marker,
      // wherever it is once the camera rests (the popup's image, once loaded, may pan the map).
      await expect
        .poll(async () => {
          await waitForStill(pageA);
          return colourShareAround(pageA, (await postMarker(pageA, postId))!, '#0CC0DF', 24);
        })
        .toBeGreaterThan(0.04);
      // The navigation state was used once and cleared.
      expect(await pageA.evaluate(() => (history.state as { usr?: unknown } | null)?.usr ?? null)).toBeNull();

      // B's map shows it without a reload, and without polling the feed: it came over the socket.
      expect(await expectPostMarker(pageB, postId)).toMatchObject({ mood: 'party' });
      expect(feedCallsB.length).toBe(callsBefore);
      // The mood filter hides other moods' markers.
      await pageB.getByRole('button', { name: 'Humeurs' }).click();
      await pageB.getByTestId('mood-option-party').click();
      await expectPostMarker(pageB, postId, { drawn: false });
      await pageB.getByTestId('mood-option-party').click();
      await pageB.keyboard.press('Escape');
      await expectPostMarker(pageB, postId);
      await tapPost(pageB, postId);
      const popupB = pageB.getByTestId('post-popup');
      await expect(popupB).toContainText(POST_TEXT);
      await expect(popupB).toContainText('Léa');
      const image = popupB.getByTestId('post-image').locator('img');
      await expect(image).toBeVisible();
      await expect
        .poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0))
        .toBe(true);
      // The image enlarges, and a backdrop click closes it.
      await popupB.getByTestId('post-image').click();
      const preview = pageB.getByTestId('image-preview');
      await expect(preview).toBeVisible();
      await preview.click({ position: { x: 12, y: 450 } });
      await expect(preview).toHaveCount(0);
      // A visitor's 'Contacter' asks to sign in.
      await popupB.getByTestId('post-contact').click();
      await expect(pageB.getByText('Veuillez vous connecter pour contacter cet utilisateur')).toBeVisible();
      await expect(pageB.getByTestId('auth-modal')).toBeVisible();
      await pageB.keyboard.press('Escape');
      await expect(pageB.getByTestId('auth-modal')).toHaveCount(0);
    });

    test('A cannot publish a second post while the first is live', async () => {
      await pageA.getByTestId('nav-create').click();
      const block = pageA.getByTestId('create-active-block');
      await expect(block).toContainText(ACTIVE_TEXT);
      await expect(pageA.getByTestId('create-form')).toHaveCount(0);
      await pageA.getByTestId('modal-close').click();
      await expect(pageA).toHaveURL(/127\.0\.0\.1:\d+\/$/);
    });

    test('single markers, a 100 m cluster and its popup, in both themes, desktop and mobile', async () => {
      for (const [name, viewport] of [
        ['desktop', { width: 1440, height: 900 }],
        ['mobile', { width: 390, height: 844 }],
      ] as const) {
        for (const scheme of ['light', 'dark'] as const) {
          const ctx = await browserRef.newContext({
            viewport,
            locale: 'fr-FR',
            timezoneId: 'Indian/Reunion',
            colorScheme: scheme,
            isMobile: name === 'mobile',
            hasTouch: name === 'mobile',
            extraHTTPHeaders: clientAddress(),
          });
          const page = await ctx.newPage();
          // Other people's posts around A's real one, so the picture has every kind of marker.
          await page.route(/\/api\/posts\/viewport\?/, (route) => withNeighbours(route));
          await page.route(/\/api\/posts\/cards\?/, (route) => withNeighbourCards(route));
          // The whole island: the cluster on the west coast, single posts in other towns.
          await openMapAt(page, { latitude: -21.1, longitude: 55.465, zoom: name === 'mobile' ? 8.8 : 9.6 });
          await expect(page.getByTestId('map-canvas')).toHaveAttribute('data-theme', scheme);
          // One 100 m group of 3 (A's post and its two neighbours) and the 4 single posts elsewhere.
          await waitForStill(page);
          await expect
            .poll(async () => (await drawnMarkers(page)).map((m) => `${m.kind}${m.n}`).sort())
            .toEqual(['g3', 'p1', 'p1', 'p1', 'p1']);
          // Inès's post has the pulse: its ring is drawn, and no other.
          expect(await pulsingPosts(page)).toEqual([NEIGHBOUR_PULSE_ID]);
          const group = (await drawnMarkers(page)).find((m) => m.kind === 'g')!;
          await tapMap(page, group);
          const list = page.getByTestId('cluster-popup');
          await expect(list).toContainText('Annonces dans cette zone');
          await expect(list).toHaveAttribute('data-count', '3');
          await expect(list.getByTestId('cluster-item')).toHaveCount(3);
          // From the list to one post, A's (with its image).
          await list.locator(`[data-testid="cluster-item"][data-post-id="${postId}"]`).click();
          await expect(page.getByTestId('post-popup')).toContainText(POST_TEXT);
          await ctx.close();
        }
      }
    });

    test("A deletes the post; it leaves B's map without a reload", async () => {
      await pageA.emulateMedia({ colorScheme: 'light' });
      await pageA.goto('/');
      await appReady(pageA);
      await waitForMap(pageA);
      await tapPost(pageA, postId);
      const popup = pageA.getByTestId('post-popup');
      await expect(popup).toBeVisible();
      await popup.getByTestId('post-delete').click();
      await popup.getByTestId('post-delete-confirm').click();
      await expect(pageA.getByText('Publication supprimée')).toBeVisible();
      await expectPostMarker(pageA, postId, { drawn: false });
      // B's popup closes and the marker goes.
      await expectPostMarker(pageB, postId, { drawn: false });
      await expect(pageB.getByTestId('post-popup')).toHaveCount(0);
    });

    test('a point at sea is refused, by the picker and by the server', async () => {
      await pageA.getByTestId('nav-create').click();
      const form = pageA.getByTestId('create-form');
      await expect(form).toBeVisible();
      await pageA.getByTestId('create-mood-happy').click();
      await pageA.getByTestId('create-content').fill('Vue sur l’océan Indien');
      const picker = pageA.getByTestId('location-picker');
      await expect(picker).toHaveAttribute('data-map-loaded', 'true', { timeout: 45_000 });
      // The picker shows La Réunion at zoom 2: 140 px east and 80 px south is open Indian Ocean.
      await picker.evaluate((el) => el.scrollIntoView({ block: 'center' }));
      const box = (await picker.boundingBox())!;
      await pageA.mouse.click(box.x + box.width / 2 + 140, box.y + box.height / 2 + 80);
      await expect(picker).not.toHaveAttribute('data-latitude', String(REUNION.latitude));
      const status = pageA.getByTestId('land-status');
      await expect(status).toHaveAttribute('data-state', 'sea');
      await expect(status).toContainText(SEA_TEXT);
      await pageA.getByTestId('create-submit').click();
      await expect(pageA.getByTestId('create-error')).toHaveText(SEA_TEXT);

      // Even when the browser's check is fooled, the server refuses the same point.
      await pageA.route(/\/api\/geo\/land\?/, (route) => route.fulfill({ json: { onLand: true } }));
      await pageA.mouse.click(box.x + box.width / 2 + 150, box.y + box.height / 2 + 90);
      await expect(status).toHaveAttribute('data-state', 'land');
      await pageA.getByTestId('create-submit').click();
      await expect(pageA.getByTestId('create-error')).toHaveText(SEA_TEXT);
      await expect(pageA).toHaveURL(/\/create$/);
      // Nothing was lost.
      await expect(pageA.getByTestId('create-content')).toHaveValue('Vue sur l’océan Indien');
      await pageA.unroute(/\/api\/geo\/land\?/);
    });

    test('the create page in both themes, desktop and mobile', async () => {
      for (const [name, viewport] of [
        ['desktop', { width: 1440, height: 900 }],
        ['mobile', { width: 390, height: 844 }],
      ] as const) {
        for (const scheme of ['light', 'dark'] as const) {
          if (name === 'desktop' && scheme === 'light') continue; // the first journey's
          await pageA.setViewportSize(viewport);
          await pageA.emulateMedia({ colorScheme: scheme });
          await pageA.goto('/create');
          await appReady(pageA);
          await expect(pageA.getByTestId('create-form')).toBeVisible();
          await pageA.getByTestId('create-mood-love').click();
          await pageA.getByTestId('create-content').fill('TROP CONTENT DE VOUS RETROUVER CE SOIR !!!!!!!!!!!!');
          await expect(pageA.getByTestId('create-warning-capitals')).toBeVisible();
          await expect(pageA.getByTestId('create-warning-repeated')).toBeVisible();
          await expect(pageA.getByTestId('location-picker')).toHaveAttribute('data-map-loaded', 'true', {
            timeout: 45_000,
          });
          await expect(pageA.getByTestId('land-status')).toHaveAttribute('data-state', 'land');
        }
      }
      await pageA.setViewportSize({ width: 1440, height: 900 });
    });
  });

/** Neighbours on the island map: two more posts within 100 m of A's (a group of 3) and four singles elsewhere on the island. */
const NEIGHBOUR_PULSE_ID = '00000000-0000-4000-8000-000000000003';
const neighbourId = (n: number) => `00000000-0000-4000-8000-00000000000${n}`;

interface NeighbourPost {
  n: number;
  category: string;
  nickname: string;
  content: string;
  latitude: number;
  longitude: number;
  minutesAgo: number;
  hasPulseEffect?: boolean;
  commentsCount?: number;
  isVoiceOnly?: boolean;
  audioUrl?: string;
  audioDuration?: number;
}

const NEIGHBOURS: NeighbourPost[] = [
  {
    n: 1,
    category: 'happy',
    nickname: 'Maëlys',
    content: 'Premier bain de l’année, l’eau est parfaite 🌊',
    latitude: REUNION.latitude + 0.0003,
    longitude: REUNION.longitude + 0.0002,
    minutesAgo: 12,
  },
  {
    n: 2,
    category: 'money',
    nickname: 'Jordan R.',
    content: 'Vends planche de surf, très bon état, prix à débattre.',
    latitude: REUNION.latitude - 0.0002,
    longitude: REUNION.longitude + 0.0004,
    minutesAgo: 47,
    commentsCount: 3,
  },
  {
    n: 3,
    category: 'love',
    nickname: 'Inès',
    content: 'Merci pour cette soirée sur le front de mer de Saint-Pierre ❤️',
    latitude: -21.3393,
    longitude: 55.4781,
    minutesAgo: 95,
    hasPulseEffect: true,
  },
  {
    n: 4,
    category: 'angry',
    nickname: 'Thierry Payet',
    content: 'Encore deux heures de bouchons pour entrer dans Saint-Denis...',
    latitude: -20.8823,
    longitude: 55.4504,
    minutesAgo: 180,
  },
  {
    n: 5,
    category: 'party',
    nickname: 'Kévin',
    content: 'Message vocal',
    isVoiceOnly: true,
    audioUrl: '/media/absent.webm',
    audioDuration: 14,
    latitude: -21.0339,
    longitude: 55.7128,
    minutesAgo: 5,
  },
  {
    n: 6,
    category: 'happy',
    nickname: 'Sarah',
    content: 'Arrivée à Cilaos après six heures de marche, quelle vue !',
    latitude: -21.1336,
    longitude: 55.4722,
    minutesAgo: 260,
  },
];

/** Our own body: none of the server's encoding, length or validator headers apply to it. */
const NO_STORE = { 'cache-control': 'no-store' };

const createdAt = (serverTime: number, minutesAgo: number) => new Date(serverTime - minutesAgo * 60_000).toISOString();
let serverNow = Date.now();

/** The viewport answer with the neighbours' markers added. */
async function withNeighbours(route: Route): Promise<void> {
  const body = await serverJson<{ points: Array<Record<string, unknown>>; serverTime: string }>(route);
  if (!body) return;
  serverNow = Date.parse(body.serverTime);
  const markers = NEIGHBOURS.map((p) => ({
    id: neighbourId(p.n),
    userId: `00000000-0000-4000-9000-00000000000${p.n}`,
    category: p.category,
    latitude: p.latitude,
    longitude: p.longitude,
    nickname: p.nickname,
    photoUrl: null,
    hasPulseEffect: p.hasPulseEffect ?? false,
    createdAt: createdAt(serverNow, p.minutesAgo),
  }));
  await answerJson(route, { ...body, points: [...body.points, ...markers] }, NO_STORE);
}

/** A group's cards with the neighbours' cards added (the real server knows only A's post). */
async function withNeighbourCards(route: Route): Promise<void> {
  const body = await serverJson<{ posts: Array<Record<string, unknown>> }>(route);
  if (!body) return;
  const asked = new URL(route.request().url()).searchParams.get('ids')?.split(',') ?? [];
  const cards = NEIGHBOURS.filter((p) => asked.includes(neighbourId(p.n))).map((p) => ({
    id: neighbourId(p.n),
    userId: `00000000-0000-4000-9000-00000000000${p.n}`,
    category: p.category,
    content: p.content,
    isVoiceOnly: p.isVoiceOnly ?? false,
    latitude: p.latitude,
    longitude: p.longitude,
    nickname: p.nickname,
    createdAt: createdAt(serverNow, p.minutesAgo),
    imageUrl: null,
    thumbnailUrl: null,
    mediaUrls: [],
    audioUrl: p.audioUrl ?? null,
    audioDuration: p.audioDuration ?? null,
    hasPulseEffect: p.hasPulseEffect ?? false,
    commentsCount: p.commentsCount ?? 0,
    likesCount: 0,
    isLikedByUser: false,
    author: { username: p.nickname, photoUrl: null, isPremium: false, isPro: false, isPlus: false, isMulti: false },
  }));
  const posts = [...body.posts, ...cards].sort((a, b) => String(b.createdAt).localeCompare(String(a.createdAt)));
  await answerJson(route, { posts }, NO_STORE);
}
