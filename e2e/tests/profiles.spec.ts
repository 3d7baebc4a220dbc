/**
 * Profiles. Léa uploads a profile photo and sees it on her own marker once she
 * has published; she changes her nickname, then finds the second change blocked (the page and the
 * server agree); she writes a bio; 'Voir sur carte' centres the map on her post. She opens Noa's
 * public page, and a grid item takes her back to the map centred on Noa's post, where Noa's
 * marker opens the profile modal, and takes Noa's new photo live.
 */
import type { APIRequestContext, BrowserContext, Page } from '@playwright/test';
import sharp from 'sharp';
import { PASSWORD, appReady, createConfirmedAccount, signInFromHome, uniqueEmail } from '../support/auth.ts';
import {
  camera,
  colourShareAround,
  expectPostMarker,
  postMarker,
  tapPost,
  waitForMap,
  waitForStill,
} from '../support/map.ts';
import { clientAddresses, expect, test } from '../support/test.ts';

/** Léa's post on the west coast; Noa's inland, at Le Tampon (both on land for the server's check). */
// Inland above Saint-Paul, kilometres from the create page's default point where other journeys
// publish: a post left there by a failed journey would group with Léa's within 100 m.
const LEA_SPOT = { latitude: -21.08, longitude: 55.3 };
const NOA_SPOT = { latitude: -21.2778, longitude: 55.5178 };
const BIO = 'Surfeuse à Saint-Leu, amoureuse des couchers de soleil et des bons caris.';

const clientAddress = clientAddresses('203.0.113', 101);

async function apiLogin(request: APIRequestContext, email: string): Promise<{ token: string; id: string }> {
  const response = await request.post('/api/auth/login', { data: { email, password: PASSWORD } });
  expect(response.status(), await response.text()).toBe(200);
  const body = (await response.json()) as { accessToken: string; user: { id: string } };
  return { token: body.accessToken, id: body.user.id };
}

async function apiPost(request: APIRequestContext, token: string, data: Record<string, unknown>): Promise<string> {
  const response = await request.post('/api/posts', { data, headers: { Authorization: `Bearer ${token}` } });
  expect(response.status(), await response.text()).toBe(201);
  return ((await response.json()) as { post: { id: string } }).post.id;
}

/** The portrait's face colour, to find it painted on a marker. */
const PORTRAIT_FACE = '#ffd9b3';

/** A real JPEG portrait, made on the spot. */
async function portrait(): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="600" height="600">
    <rect width="600" height="600" fill="#0CC0DF"/>
    <circle cx="300" cy="240" r="120" fill="#ffd9b3"/>
    <rect x="140" y="390" width="320" height="260" rx="150" fill="#7c3aed"/>
  </svg>`;
  return sharp(Buffer.from(svg)).jpeg({ quality: 85 }).toBuffer();
}

async function mapCentre(page: Page): Promise<{ lat: number; lng: number }> {
  await waitForStill(page);
  const { latitude, longitude } = await camera(page);
  return { lat: latitude, lng: longitude };
}

async function expectCentredOn(page: Page, spot: { latitude: number; longitude: number }): Promise<void> {
  await expect
    .poll(
      async () => {
        const c = await mapCentre(page);
        return Math.abs(c.lat - spot.latitude) < 0.01 && Math.abs(c.lng - spot.longitude) < 0.01;
      },
      { timeout: 20_000 },
    )
    .toBe(true);
}

test.describe
  .serial('profiles', () => {
    let ctx: BrowserContext;
    let page: Page;
    const leaEmail = uniqueEmail('lea');
    const noaEmail = uniqueEmail('noa');
    let lea = { token: '', id: '' };
    let noa = { token: '', id: '' };
    let noaPostId = '';
    let leaPostId = '';

    test.beforeAll(async ({ browser, request }) => {
      await createConfirmedAccount(request, { email: leaEmail, firstName: 'Léa', lastName: 'Hoarau' });
      await createConfirmedAccount(request, { email: noaEmail, firstName: 'Noa', lastName: 'Payet' });
      lea = await apiLogin(request, leaEmail);
      noa = await apiLogin(request, noaEmail);
      noaPostId = await apiPost(request, noa.token, {
        category: 'happy',
        content: 'Marché forain du Tampon, les letchis sont arrivés !',
        ...NOA_SPOT,
      });
      const bio = await request.patch('/api/profiles/me', {
        data: { bio: 'Guide de randonnée dans les Hauts.' },
        headers: { Authorization: `Bearer ${noa.token}` },
      });
      expect(bio.status()).toBe(200);
      ctx = await browser.newContext({
        viewport: { width: 1440, height: 900 },
        locale: 'fr-FR',
        timezoneId: 'Indian/Reunion',
        extraHTTPHeaders: clientAddress(),
      });
      page = await ctx.newPage();
      await page.emulateMedia({ colorScheme: 'light' });
    });

    test.afterAll(async () => {
      await ctx?.close();
    });

    test('uploads a photo and sees it on her own marker after publishing', async ({ request }) => {
      await signInFromHome(page, leaEmail);
      await page.getByTestId('nav-profile').click();
      const profile = page.getByTestId('own-profile');
      await expect(profile).toBeVisible();
      await expect(page.getByTestId('my-posts-empty')).toContainText('Créer une publication');

      // The client refuses a wrong type with the product's French text, without sending it.
      await page
        .getByTestId('profile-photo-input')
        .setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('bonjour') });
      await expect(page.getByText('Type de fichier non autorisé. Utilisez JPEG, PNG, GIF ou WebP.')).toBeVisible();

      await page
        .getByTestId('profile-photo-input')
        .setInputFiles({ name: 'portrait.jpg', mimeType: 'image/jpeg', buffer: await portrait() });
      await expect(page.getByText('Photo de profil mise à jour avec succès !')).toBeVisible();
      const avatar = page.getByTestId('profile-photo').locator('img');
      await expect(avatar).toBeVisible();
      await expect
        .poll(() => avatar.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0))
        .toBe(true);

      const read = await request.get(`/api/profiles/${lea.id}`);
      const { profile: publicLea } = (await read.json()) as {
        profile: { profilePhotoUrl: string; avatarUrl: string | null };
      };
      expect(publicLea.profilePhotoUrl).toBeTruthy();
      const photos = [publicLea.profilePhotoUrl, publicLea.avatarUrl]
        .filter(Boolean)
        .map((u) => new URL(u!, 'http://x').pathname);

      leaPostId = await apiPost(request, lea.token, {
        category: 'party',
        content: 'Soirée sur la plage de Boucan Canot, venez !',
        ...LEA_SPOT,
      });
      // Her list shows it; 'Voir sur carte' centres the map on it, where her photo is the marker.
      await page.goto('/profile');
      await appReady(page);
      const item = page.locator(`[data-testid="my-post"][data-post-id="${leaPostId}"]`);
      await expect(item).toContainText('Expire dans 23h');
      await expect(item).toContainText('Fête');
      await expect(page.getByTestId('my-posts-title')).toHaveText('Publications (1)');
      await item.getByTestId('my-post-see-on-map').click();
      await expect(page).toHaveURL(/127\.0\.0\.1:\d+\/$/);
      await waitForMap(page);
      await expectCentredOn(page, LEA_SPOT);
      const marker = await expectPostMarker(page, leaPostId, { timeout: 20_000 });
      expect(photos).toContain(new URL(marker!.photo!, 'http://x').pathname);
      // And the portrait is what the map paints there: its face colour around the marker.
      await waitForStill(page);
      await expect
        .poll(async () => colourShareAround(page, (await postMarker(page, leaPostId))!, PORTRAIT_FACE, 20))
        .toBeGreaterThan(0.02);
    });

    test('changes the nickname, then finds the second change blocked', async ({ request }) => {
      await page.getByTestId('nav-profile').click();
      await page.getByTestId('nickname-edit').click();
      await page.getByTestId('nickname-input').fill('12345');
      await page.getByTestId('nickname-save').click();
      await expect(page.getByTestId('nickname-error')).toHaveText(
        'Le pseudo ne peut pas être composé uniquement de chiffres',
      );
      await page.getByTestId('nickname-input').fill('Léa Surf_974');
      await page.getByTestId('nickname-save').click();
      await expect(page.getByText('Pseudo modifié avec succès !')).toBeVisible();
      await expect(page.getByTestId('profile-nickname')).toHaveText('Léa Surf_974');

      // Blocked for 30 days: the page says so with the date, and offers no edit control.
      const blocked = page.getByTestId('nickname-blocked');
      await expect(blocked).toContainText('Vous avez déjà modifié votre pseudo ce mois-ci.');
      const next = new Date(Date.now() + 30 * 24 * 60 * 60 * 1000).toLocaleDateString('fr-FR', {
        timeZone: 'Indian/Reunion',
      });
      await expect(page.getByTestId('nickname-next-date')).toHaveText(`Prochain changement possible le ${next}`);
      await expect(page.getByTestId('nickname-edit')).toHaveCount(0);
      // The server enforces it whatever the page shows.
      const second = await request.patch('/api/profiles/me', {
        data: { nickname: 'Léa Deux' },
        headers: { Authorization: `Bearer ${lea.token}` },
      });
      expect(second.status()).toBe(409);
      const body = (await second.json()) as { error: { code: string; message: string; nextAllowedAt: string } };
      expect(body.error.code).toBe('nickname_blocked');
      expect(body.error.message).toBe('Vous avez déjà modifié votre pseudo ce mois-ci.');
    });

    test('writes a bio', async () => {
      await page.getByTestId('bio-edit').click();
      await page.getByTestId('bio-input').fill(BIO);
      await expect(page.getByTestId('bio-counter')).toHaveText(`${[...BIO].length}/500`);
      await page.getByTestId('bio-save').click();
      await expect(page.getByText('Bio mise à jour avec succès !')).toBeVisible();
      await expect(page.getByTestId('profile-bio')).toHaveText(BIO);
      await expect(page.getByTestId('my-posts-title')).toHaveText('Publications (1)');
    });

    test("opens Noa's public page; a grid item centres the map on Noa's post", async ({ request }) => {
      await page.goto(`/user/${noa.id}`);
      await appReady(page);
      const pub = page.getByTestId('public-profile');
      await expect(pub.getByTestId('profile-username')).toHaveText('Noa');
      await expect(pub.getByTestId('profile-about')).toContainText('Guide de randonnée dans les Hauts.');
      await expect(pub.getByTestId('profile-member-since')).toContainText('Membre depuis');
      await expect(pub.getByTestId('profile-send-message')).toBeVisible();
      await expect(pub.getByTestId('profile-posts-title')).toHaveText('Publications (1)');

      await pub.locator(`[data-testid="profile-grid-post"][data-post-id="${noaPostId}"]`).click();
      await expect(page).toHaveURL(/127\.0\.0\.1:\d+\/$/);
      await waitForMap(page);
      await expectCentredOn(page, NOA_SPOT);

      // Noa's marker, then its author: the profile modal over the map.
      await tapPost(page, noaPostId);
      const popup = page.getByTestId('post-popup');
      await expect(popup).toContainText('Marché forain du Tampon');
      await popup.getByTestId('post-author').click();
      const modal = page.getByRole('dialog', { name: 'Profil utilisateur' });
      await expect(modal).toBeVisible();
      await expect(modal.getByTestId('profile-modal-body')).toHaveAttribute('data-user-id', noa.id);
      await expect(modal.getByTestId('profile-username')).toHaveText('Noa');
      await expect(modal.getByTestId('profile-member-since')).toContainText('Membre depuis');
      await expect(modal).toContainText('Guide de randonnée dans les Hauts.');
      await expect(modal.getByTestId('profile-modal-post')).toHaveCount(1);
      await expect(modal.getByTestId('profile-modal-post')).toContainText('les letchis sont arrivés');
      await expect(modal.getByRole('button', { name: 'Envoyer un message' })).toBeVisible();
      await page.keyboard.press('Escape');
      await expect(modal).toHaveCount(0);

      // Noa puts up a photo: Léa's map shows it on Noa's marker at once, without a reload.
      const noaMarker = () => expectPostMarker(page, noaPostId);
      expect((await noaMarker())!.photo).toBeNull();
      await waitForStill(page);
      expect(await colourShareAround(page, (await noaMarker())!, PORTRAIT_FACE, 20)).toBeLessThan(0.005);
      const upload = await request.post('/api/profiles/me/photo', {
        headers: { Authorization: `Bearer ${noa.token}` },
        multipart: { file: { name: 'noa.jpg', mimeType: 'image/jpeg', buffer: await portrait() } },
      });
      expect(upload.status(), await upload.text()).toBe(200);
      const { profile: noaProfile } = (
        (await upload.json()) as { user: { profile: { profilePhotoUrl: string | null; avatarUrl: string | null } } }
      ).user;
      expect(noaProfile.profilePhotoUrl).toBeTruthy();
      const noaPhotos = [noaProfile.profilePhotoUrl, noaProfile.avatarUrl].filter((u): u is string => Boolean(u));
      await expect.poll(async () => noaPhotos.includes((await noaMarker())?.photo ?? '')).toBe(true);
      await expect
        .poll(async () => colourShareAround(page, (await noaMarker())!, PORTRAIT_FACE, 20))
        .toBeGreaterThan(0.02);

      // Her own page offers no message to herself.
      await page.goto(`/user/${lea.id}`);
      await appReady(page);
      await expect(page.getByTestId('public-profile')).toContainText('Léa Surf_974');
      await expect(page.getByTestId('profile-send-message')).toHaveCount(0);
    });

    test('public page on mobile, dark', async ({ browser }) => {
      const mobile = await browser.newContext({
        viewport: { width: 390, height: 844 },
        isMobile: true,
        hasTouch: true,
        locale: 'fr-FR',
        timezoneId: 'Indian/Reunion',
        colorScheme: 'dark',
        extraHTTPHeaders: clientAddress(),
      });
      try {
        const phone = await mobile.newPage();
        await phone.goto(`/user/${lea.id}`);
        await appReady(phone);
        const pub = phone.getByTestId('public-profile');
        await expect(pub.getByTestId('profile-username')).toHaveText('Léa Surf_974');
        await expect(pub.getByTestId('profile-about')).toContainText(BIO);
        await expect(pub.locator('img').first()).toBeVisible();
        // A visitor sees the button; it asks to sign in.
        await pub.getByTestId('profile-send-message').click();
        await expect(phone.getByText('Veuillez vous connecter pour contacter cet utilisateur')).toBeVisible();
        await expect(phone.getByTestId('auth-modal')).toBeVisible();
        await phone.keyboard.press('Escape');
        await expect(phone.getByText('Profil introuvable')).toHaveCount(0);
        await phone.goto('/user/00000000-0000-4000-8000-000000000000');
        await appReady(phone);
        await expect(phone.getByText('Profil introuvable')).toBeVisible();
        await expect(phone.getByRole('button', { name: 'Retour' })).toBeVisible();
      } finally {
        await mobile.close();
      }
    });
  });
