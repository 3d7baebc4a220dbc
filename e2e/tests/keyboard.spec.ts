/**
 * The post-and-reply loop with the keyboard only (Tab, Shift+Tab, Enter, Space,
 * Escape and typing; no pointer). Léa signs in, publishes from her position (a granted
 * geolocation); Marc reaches her post's marker by Tab from the map (named 'Publication de Léa,
 * Joyeux, il y a …'), opens its card with Enter, comments, closes it with Escape (the focus goes
 * back to the marker), then writes to her from the card; Léa answers from her messages. The list
 * view shows the same posts as the map.
 */
import type { Page } from '@playwright/test';
import { PASSWORD, createConfirmedAccount, expectSignedIn, uniqueEmail } from '../support/auth.ts';
import { drawnMarkers, expectPostMarker, openMapAt, settle } from '../support/map.ts';
import { clientAddresses, expect, test } from '../support/test.ts';

const clientAddress = clientAddresses('203.0.121');
/** Lyon, Place Bellecour: no other journey posts here. */
const LYON = { latitude: 45.7578, longitude: 4.832 };
const POST_TEXT = 'Concert improvisé sur la place, on cherche un batteur !';
const COMMENT = 'Je peux venir avec mes baguettes.';
const MESSAGE = 'Bonjour Léa, à quelle heure ?';
const FOLLOW_UP = 'Je passe demain.';
const REPLY = 'Vers 19 h, à tout à l’heure !';

/** Presses Tab (or Shift+Tab) until the focused element matches `selector`. */
async function tabTo(page: Page, selector: string, { back = false, max = 150 } = {}): Promise<void> {
  for (let i = 0; i < max; i++) {
    await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
    if (await page.evaluate((s) => document.activeElement?.matches(s) ?? false, selector)) return;
  }
  throw new Error(`Tab never reached ${selector}`);
}

const focused = (page: Page, selector: string) =>
  page.evaluate((s) => document.activeElement?.matches(s) ?? false, selector);

async function signInByKeyboard(page: Page, email: string): Promise<void> {
  await tabTo(page, '[data-testid="nav-profile"]');
  await page.keyboard.press('Enter');
  const modal = page.getByTestId('auth-modal');
  await expect(modal).toContainText('Connexion');
  // The e-mail field takes the focus when the dialog opens.
  await expect(modal.getByLabel('Email')).toBeFocused();
  await page.keyboard.type(email);
  await page.keyboard.press('Tab');
  await expect(modal.getByLabel('Mot de passe', { exact: true })).toBeFocused();
  await page.keyboard.type(PASSWORD);
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('nav-profile')).toHaveText('Profil', { timeout: 30_000 });
  await expectSignedIn(page, true);
  await expect(modal).toHaveCount(0);
}

test.describe
  .serial('the keyboard-only loop', () => {
    const lea = uniqueEmail('clavier-lea');
    const marc = uniqueEmail('clavier-marc');
    const others = [uniqueEmail('clavier-noa'), uniqueEmail('clavier-sam')];
    let leaPage: Page;
    let marcPage: Page;
    let postId = '';

    test.beforeAll(async ({ browser, playwright, baseURL }) => {
      test.setTimeout(120_000);
      for (const [email, firstName] of [
        [lea, 'Léa'],
        [marc, 'Marc'],
        [others[0]!, 'Noa'],
        [others[1]!, 'Sam'],
      ] as const) {
        const client = await playwright.request.newContext({ baseURL, extraHTTPHeaders: clientAddress() });
        await createConfirmedAccount(client, { email, firstName, lastName: 'Clavier' });
        // Two more posts nearby (over 100 m apart, so each is its own marker) for the list view.
        const index = others.indexOf(email);
        if (index >= 0) {
          const login = await client.post('/api/auth/login', { data: { email, password: PASSWORD } });
          const { accessToken } = (await login.json()) as { accessToken: string };
          const created = await client.post('/api/posts', {
            headers: { Authorization: `Bearer ${accessToken}` },
            data: {
              category: index === 0 ? 'party' : 'love',
              content: `Publication ${index + 1} près de Bellecour`,
              latitude: LYON.latitude + 0.004 * (index + 1),
              longitude: LYON.longitude - 0.003 * (index + 1),
            },
          });
          expect(created.status(), await created.text()).toBe(201);
        }
        await client.dispose();
      }
      const options = {
        viewport: { width: 1440, height: 900 },
        locale: 'fr-FR',
        timezoneId: 'Europe/Paris',
        colorScheme: 'light' as const,
      };
      leaPage = await (
        await browser.newContext({
          ...options,
          extraHTTPHeaders: clientAddress(),
          permissions: ['geolocation'],
          geolocation: LYON,
        })
      ).newPage();
      marcPage = await (await browser.newContext({ ...options, extraHTTPHeaders: clientAddress() })).newPage();
    });

    test.afterAll(async () => {
      await leaPage?.context().close();
      await marcPage?.context().close();
    });

    test('Léa signs in and publishes from her position, by keyboard', async () => {
      await openMapAt(leaPage, { ...LYON, zoom: 14 });
      await signInByKeyboard(leaPage, lea);
      await tabTo(leaPage, '[data-testid="nav-create"]');
      await leaPage.keyboard.press('Enter');
      await expect(leaPage.getByTestId('create-form')).toBeVisible();
      // The moods are radio buttons: Tab reaches the group, the arrows choose, Space confirms.
      await tabTo(leaPage, 'input[name="mood"]');
      await leaPage.keyboard.press('Space');
      await expect(leaPage.locator('input[name="mood"][value="happy"]')).toBeChecked();
      await tabTo(leaPage, '[data-testid="create-content"]');
      await leaPage.keyboard.type(POST_TEXT, { delay: 15 });
      await expect(leaPage.getByTestId('create-content')).toHaveValue(POST_TEXT);
      await expect(leaPage.getByTestId('location-picker')).toHaveAttribute('data-map-loaded', 'true', {
        timeout: 45_000,
      });
      await tabTo(leaPage, '[data-testid="picker-locate"]');
      await leaPage.keyboard.press('Enter');
      await expect(leaPage.getByTestId('location-picker')).toHaveAttribute('data-latitude', String(LYON.latitude));
      await expect(leaPage.getByTestId('land-status')).toHaveAttribute('data-state', 'land', { timeout: 45_000 });
      await tabTo(leaPage, '[data-testid="create-submit"]');
      await leaPage.keyboard.press('Enter');
      const popup = leaPage.getByTestId('post-popup');
      await expect(popup).toContainText(POST_TEXT, { timeout: 30_000 });
      postId = (await popup.getAttribute('data-post-id')) ?? '';
      expect(postId).not.toBe('');
    });

    test('Marc reaches the marker by Tab, opens it with Enter, comments, and Escape gives the focus back', async () => {
      await openMapAt(marcPage, { ...LYON, zoom: 14 });
      await signInByKeyboard(marcPage, marc);
      await expectPostMarker(marcPage, postId);
      const marker = `[data-testid="marker-button"][data-post-id="${postId}"]`;
      await expect(marcPage.locator(marker)).toHaveAccessibleName(
        /^Publication de Léa, Joyeux, (il y a \d+ minutes?|À l'instant)$/,
      );
      // From the start of the page: Tab walks the map's markers, nearest to the centre first.
      await marcPage.keyboard.press('Escape');
      await tabTo(marcPage, marker);
      await settle(marcPage);
      // The focused marker is ringed on the map, its name written below it.
      await expect(marcPage.locator(marker)).toBeVisible();

      await marcPage.keyboard.press('Enter');
      const popup = marcPage.getByTestId('post-popup');
      await expect(popup).toContainText(POST_TEXT);
      await expect.poll(() => focused(marcPage, '.mm-popup, .mm-popup *')).toBe(true);
      await tabTo(marcPage, '[data-testid="post-comment"]');
      await marcPage.keyboard.press('Enter');
      await tabTo(marcPage, '[data-testid="comment-form-input"]');
      await marcPage.keyboard.type(COMMENT, { delay: 15 });
      await marcPage.keyboard.press('Enter');
      await expect(popup.getByTestId('comment-text')).toHaveText(COMMENT);
      // Léa's open card follows.
      await expect(leaPage.getByTestId('post-popup').getByTestId('post-comment-count')).toHaveText('1');

      await marcPage.keyboard.press('Escape');
      await expect(popup).toHaveCount(0);
      await expect.poll(() => focused(marcPage, marker)).toBe(true);
    });

    test('Marc writes to Léa from the card; Léa hears it and answers, by keyboard', async () => {
      const marker = `[data-testid="marker-button"][data-post-id="${postId}"]`;
      await expect.poll(() => focused(marcPage, marker)).toBe(true);
      await marcPage.keyboard.press('Enter');
      await tabTo(marcPage, '[data-testid="post-contact"]');
      await marcPage.keyboard.press('Enter');
      await expect(marcPage).toHaveURL(/\/messages\?conversation=/);
      // Tab once the panel is there: a Tab pressed while it loads would move the focus on the page behind.
      await expect(marcPage.getByTestId('message-input')).toBeVisible();
      await tabTo(marcPage, '[data-testid="message-input"]');
      await marcPage.keyboard.type(MESSAGE, { delay: 15 });
      await marcPage.keyboard.press('Enter');
      // The composer opens with the product's greeting about the post; the typed words follow it.
      await expect(marcPage.getByTestId('message-bubble')).toHaveCount(1);
      await expect(marcPage.getByTestId('message-bubble')).toContainText(MESSAGE);

      // A first message from a stranger is a request: Léa opens 'Demandes', the request, accepts it
      // and answers, all by keyboard.
      await leaPage.keyboard.press('Escape');
      await tabTo(leaPage, '[data-testid="nav-messages"]');
      await leaPage.keyboard.press('Enter');
      await expect(leaPage.getByTestId('box-requests')).toHaveText('Demandes (1)');
      await tabTo(leaPage, '[data-testid="box-requests"]');
      await leaPage.keyboard.press('Enter');
      const request = '[data-testid="request-list"] [data-testid="conversation-item"]';
      await expect(leaPage.locator(request)).toBeVisible();
      await tabTo(leaPage, request);
      await leaPage.keyboard.press('Enter');
      await expect(leaPage.getByTestId('request-actions')).toBeVisible();
      await tabTo(leaPage, '[data-testid="request-accept"]');
      await leaPage.keyboard.press('Enter');
      await expect(leaPage.getByTestId('message-input')).toBeVisible();
      await tabTo(leaPage, '[data-testid="message-input"]');
      await leaPage.keyboard.type(REPLY, { delay: 15 });
      await leaPage.keyboard.press('Enter');
      await expect(marcPage.getByTestId('message-bubble')).toHaveCount(2);
      await expect(marcPage.getByTestId('message-bubble').last()).toContainText(REPLY);

      // In the accepted conversation, Léa's screen reader hears Marc's next message through the
      // app's live region while she is back on the map.
      await leaPage.keyboard.press('Escape');
      await expect(leaPage.getByTestId('message-input')).toHaveCount(0);
      await tabTo(marcPage, '[data-testid="message-input"]');
      await marcPage.keyboard.type(FOLLOW_UP, { delay: 15 });
      await marcPage.keyboard.press('Enter');
      await expect(leaPage.getByTestId('live-announcer')).toContainText(`Nouveau message : Marc, ${FOLLOW_UP}`);

      // Escape closes the messages panel; the focus goes back to where it was before it opened.
      await marcPage.keyboard.press('Escape');
      await expect(marcPage).toHaveURL(/\/$/);
      await expect.poll(() => focused(marcPage, '[data-testid="post-contact"]')).toBe(true);
    });

    test('the list view shows the posts the map draws, and opens their cards', async () => {
      await marcPage.keyboard.press('Escape');
      await expect(marcPage.getByTestId('post-popup')).toHaveCount(0);
      await settle(marcPage);
      // The map draws its markers again once the popup is gone. The worker's server may hold other
      // journeys' posts in this view too: the list must show exactly what the map draws.
      const drawnPosts = async () =>
        (await drawnMarkers(marcPage))
          .filter((m) => m.kind === 'p')
          .map((m) => m.pid!)
          .sort();
      await expect.poll(drawnPosts).toContain(postId);
      const onMap = await drawnPosts();
      expect(onMap.length).toBeGreaterThanOrEqual(3);
      await tabTo(marcPage, '[data-testid="view-list"]');
      await marcPage.keyboard.press('Enter');
      const list = marcPage.getByTestId('post-list');
      await expect(list.getByTestId('post-list-item')).toHaveCount(onMap.length);
      const listed = (
        await list
          .getByTestId('post-list-item')
          .evaluateAll((items) => items.map((i) => i.getAttribute('data-post-id') ?? ''))
      ).sort();
      expect(listed).toEqual(onMap);
      // Newest first: Léa's post, published last.
      await tabTo(marcPage, '[data-testid="post-list-sort-time"]');
      await marcPage.keyboard.press('Enter');
      await expect(list.getByTestId('post-list-item').first()).toHaveAttribute('data-post-id', postId);
      await tabTo(marcPage, `[data-testid="post-list-item"][data-post-id="${postId}"]`);
      await marcPage.keyboard.press('Enter');
      await expect(list.getByTestId('post-popup')).toContainText(POST_TEXT);
      await marcPage.keyboard.press('Escape');
      await expect(list.getByTestId('post-popup')).toHaveCount(0);
      await expect.poll(() => focused(marcPage, `[data-testid="post-list-item"][data-post-id="${postId}"]`)).toBe(true);
      // Escape again leaves the list for the map.
      await marcPage.keyboard.press('Escape');
      await expect(list).toHaveCount(0);
      await expect.poll(() => focused(marcPage, '[data-testid="view-list"]')).toBe(true);
    });
  });
