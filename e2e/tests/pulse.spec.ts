/**
 * Pulse credits bought by card through the dev checkout (the embedded stand-in
 * for Stripe, completing through the same signed webhook). A new member with no credit opens
 * /create, sees the purchase box, is declined with the test card 4000 0000 0000 0002 (an error,
 * nothing credited), then buys 5 credits with 4242 4242 4242 4242 in the 800×600 popup: the
 * balance shows 5 and the toggle turns on. The post published with the pulse shows it on another
 * browser's map. The receipt is in the dev outbox. The profile shows the balance and the history.
 * The same purchase at 390×844 goes by same-window redirect and comes back to /create.
 */
import type { APIRequestContext, Page } from '@playwright/test';
import {
  PASSWORD,
  appReady,
  createConfirmedAccount,
  signInFromHome,
  uniqueEmail,
  waitForMail,
} from '../support/auth.ts';
import { fillPostForm, publishOnLand } from '../support/create.ts';
import { clientAddresses, expect, test, unrelayedDevPages } from '../support/test.ts';

// With motion, unlike the other journeys (playwright.config.ts): here the pulse ring animates.
test.use({ reducedMotion: 'no-preference' });

const RECEIPT = /Votre reçu MoodMap : crédits Pulse/;
const REUNION = { latitude: -21.0667, longitude: 55.2167 };

const clientAddress = clientAddresses('203.0.113', 101);

/** A member's balance as the API reports it (signed in apart from the browser, whose session stays untouched). */
async function balanceOf(request: APIRequestContext, email: string): Promise<number> {
  const login = await request.post('/api/auth/login', { data: { email, password: PASSWORD } });
  expect(login.status()).toBe(200);
  const { accessToken } = (await login.json()) as { accessToken: string };
  const purchases = await request.get('/api/pulse/purchases', { headers: { Authorization: `Bearer ${accessToken}` } });
  return ((await purchases.json()) as { credits: number }).credits;
}

async function payWith(checkout: Page, card: string): Promise<void> {
  await checkout.getByLabel('Numéro de carte').fill(card);
  await checkout.getByLabel('Expiration (MM/AA)').fill('12/34');
  await checkout.getByLabel('CVC').fill('123');
  await checkout.getByLabel('Nom du titulaire').fill('Léa Hoarau');
  await checkout.getByRole('button', { name: /^Payer / }).click();
}

async function openCreate(page: Page): Promise<void> {
  await page.getByTestId('nav-create').click();
  await expect(page.getByTestId('create-form')).toBeVisible();
}

test.describe
  .serial('Pulse credits', () => {
    const email = uniqueEmail('pulse');
    let postId = '';

    test.beforeAll(async ({ request }) => {
      await createConfirmedAccount(request, { email, firstName: 'Léa', lastName: 'Hoarau' });
    });

    test('desktop: declined, then 5 credits bought in the popup; the toggle turns on; the pulse ring on another browser’s map; the receipt', async ({
      browser,
      request,
    }) => {
      const ctx = await browser.newContext({
        viewport: { width: 1440, height: 900 },
        locale: 'fr-FR',
        timezoneId: 'Indian/Reunion',
        colorScheme: 'light',
        extraHTTPHeaders: clientAddress(),
      });
      await unrelayedDevPages(ctx);
      const page = await ctx.newPage();
      await signInFromHome(page, email);
      await openCreate(page);

      // No credit: the purchase box, 2,50 € a credit, the quantity picker and its French total.
      const box = page.getByTestId('pulse-purchase');
      await expect(box).toContainText('2,50 € le crédit');
      await expect(page.getByTestId('pulse-toggle')).toHaveCount(0);
      await page.getByTestId('pulse-quantity-5').check({ force: true });
      await expect(page.getByTestId('pulse-total')).toHaveText('Total : 12,50 €');
      await box.scrollIntoViewIfNeeded();

      // A declined card: the checkout page says so, nothing is credited, and the closed popup changes nothing.
      const [declinedPopup] = await Promise.all([page.waitForEvent('popup'), page.getByTestId('pulse-buy').click()]);
      await declinedPopup.waitForURL(/\/dev\/checkout\/cs_dev_/);
      expect(declinedPopup.viewportSize()).toEqual({ width: 800, height: 600 });
      await expect(declinedPopup.getByTestId('dev-checkout-banner')).toContainText('PAIEMENT DE TEST');
      await expect(declinedPopup.getByTestId('dev-checkout-amount')).toHaveText('12,50 €');
      await payWith(declinedPopup, '4000 0000 0000 0002');
      await expect(declinedPopup.getByTestId('dev-checkout-error')).toHaveText(
        'Votre carte a été refusée. Aucun montant n’a été débité.',
      );
      await declinedPopup.close();
      await expect(page.getByText('Paiement non confirmé.', { exact: false })).toBeVisible();
      await expect(page.getByTestId('pulse-purchase')).toBeVisible();
      expect(await balanceOf(request, email)).toBe(0);

      // 4242…: paid; the popup comes back to the app and closes; 2 s later the balance is read.
      await page.getByTestId('pulse-quantity-5').check({ force: true });
      const [popup] = await Promise.all([page.waitForEvent('popup'), page.getByTestId('pulse-buy').click()]);
      await popup.waitForURL(/\/dev\/checkout\/cs_dev_/);
      await payWith(popup, '4242 4242 4242 4242');
      await popup.waitForEvent('close', { timeout: 30_000 });
      await expect(page.getByText('Paiement confirmé : 5 crédits Pulse ajoutés')).toBeVisible();
      const toggle = page.getByTestId('pulse-toggle');
      await expect(toggle).toContainText('Crédits : 5');
      await expect(toggle.getByRole('switch')).toBeChecked();
      expect(await balanceOf(request, email)).toBe(5);

      // The receipt: amount, quantity and date.
      const receipt = await waitForMail(request, email, RECEIPT);
      expect(receipt.text).toContain('Crédits Pulse : 5');
      expect(receipt.text).toContain('Montant payé : 12,50 €');
      expect(receipt.text).toMatch(/Date : \d{2}\/\d{2}\/\d{4}/);

      // A post with the pulse: one credit spent.
      await fillPostForm(page, 'party', 'Soirée séga au Barachois, venez briller avec nous !');
      postId = await publishOnLand(page);
      expect(await balanceOf(request, email)).toBe(4);

      // Another browser, a visitor: the post carries the pulse, and the WebGL map draws its pulse
      // ring (the circle layer mm-pulse-a holds only pulse posts: marker-layers.ts).
      const other = await browser.newContext({
        viewport: { width: 1440, height: 900 },
        locale: 'fr-FR',
        timezoneId: 'Europe/Paris',
        extraHTTPHeaders: clientAddress(),
      });
      const visitor = await other.newPage();
      // Not support/map.ts's waitForMap: the ring's animation repaints every frame, so the map never
      // reports itself idle ("loaded") while a pulse post is in view.
      await visitor.goto('/');
      await visitor.evaluate((v) => localStorage.setItem('moodmap.mapLocation', JSON.stringify(v)), {
        ...REUNION,
        zoom: 12,
      });
      await visitor.reload();
      await appReady(visitor);
      await visitor.locator('[data-testid="map-canvas"][data-map-loaded="true"]').waitFor({ timeout: 45_000 });
      const read = await visitor.evaluate(
        async (id) => (await (await fetch(`/api/posts/${id}`)).json()) as { post: { hasPulseEffect: boolean } },
        postId,
      );
      expect(read.post.hasPulseEffect).toBe(true);
      await expect
        .poll(
          () =>
            visitor.evaluate((id) => {
              const map = (
                window as unknown as {
                  __moodmapMap: {
                    queryRenderedFeatures(o: { layers: string[] }): Array<{ properties: { pid?: string } }>;
                  };
                }
              ).__moodmapMap;
              return map.queryRenderedFeatures({ layers: ['mm-pulse-a'] }).some((f) => f.properties.pid === id);
            }, postId),
          { timeout: 20_000 },
        )
        .toBe(true);
      await other.close();
      await ctx.close();
    });

    test('the own profile shows the balance and the purchase history, in both themes', async ({ browser }) => {
      for (const scheme of ['light', 'dark'] as const) {
        const ctx = await browser.newContext({
          viewport: { width: 1440, height: 900 },
          locale: 'fr-FR',
          timezoneId: 'Indian/Reunion',
          colorScheme: scheme,
          extraHTTPHeaders: clientAddress(),
        });
        await unrelayedDevPages(ctx);
        const page = await ctx.newPage();
        await signInFromHome(page, email);
        await page.getByTestId('nav-profile').click();
        const wallet = page.getByTestId('pulse-wallet');
        await expect(wallet.getByTestId('pulse-balance')).toHaveText('4');
        const rows = wallet.getByTestId('pulse-history').locator('tbody tr');
        await expect(rows).toHaveCount(2);
        // Newest first: the paid purchase, then the declined attempt still pending.
        await expect(rows.nth(0)).toContainText('5');
        await expect(rows.nth(0)).toContainText('12,50 €');
        await expect(rows.nth(0)).toContainText('Payé');
        await expect(rows.nth(0)).toContainText(/\d{2}\/\d{2}\/\d{4}/);
        await expect(rows.nth(1)).toContainText('En attente');
        await wallet.scrollIntoViewIfNeeded();
        await ctx.close();
      }
    });

    test('mobile 390×844: the same purchase by same-window redirect, back on /create with the toggle on', async ({
      browser,
      request,
    }) => {
      const mobileEmail = uniqueEmail('pulse-mobile');
      await createConfirmedAccount(request, { email: mobileEmail, firstName: 'Noé', lastName: 'Payet' });
      const ctx = await browser.newContext({
        viewport: { width: 390, height: 844 },
        isMobile: true,
        hasTouch: true,
        locale: 'fr-FR',
        timezoneId: 'Indian/Reunion',
        colorScheme: 'dark',
        extraHTTPHeaders: clientAddress(),
      });
      await unrelayedDevPages(ctx);
      const page = await ctx.newPage();
      let popups = 0;
      page.on('popup', () => {
        popups += 1;
      });
      await signInFromHome(page, mobileEmail);
      await openCreate(page);
      const box = page.getByTestId('pulse-purchase');
      await page.getByTestId('pulse-quantity-5').check({ force: true });
      await box.scrollIntoViewIfNeeded();
      await page.getByTestId('pulse-buy').click();
      await page.waitForURL(/\/dev\/checkout\/cs_dev_/);
      await expect(page.getByTestId('dev-checkout-amount')).toHaveText('12,50 €');
      await payWith(page, '4242424242424242');
      await page.waitForURL(/\/create$/, { timeout: 30_000 });
      await expect(page.getByText('Paiement confirmé : 5 crédits Pulse ajoutés')).toBeVisible();
      const toggle = page.getByTestId('pulse-toggle');
      await expect(toggle).toContainText('Crédits : 5');
      await expect(toggle.getByRole('switch')).toBeChecked();
      expect(popups).toBe(0);
      await toggle.scrollIntoViewIfNeeded();
      await waitForMail(request, mobileEmail, RECEIPT);
      await ctx.close();
    });

    test('dark theme: the purchase box and the dev checkout page on desktop', async ({ browser, request }) => {
      const darkEmail = uniqueEmail('pulse-dark');
      await createConfirmedAccount(request, { email: darkEmail, firstName: 'Inès', lastName: 'Grondin' });
      const ctx = await browser.newContext({
        viewport: { width: 1440, height: 900 },
        locale: 'fr-FR',
        timezoneId: 'Indian/Reunion',
        colorScheme: 'dark',
        extraHTTPHeaders: clientAddress(),
      });
      await unrelayedDevPages(ctx);
      const page = await ctx.newPage();
      await signInFromHome(page, darkEmail);
      await openCreate(page);
      const box = page.getByTestId('pulse-purchase');
      await box.scrollIntoViewIfNeeded();
      const [popup] = await Promise.all([page.waitForEvent('popup'), page.getByTestId('pulse-buy').click()]);
      await popup.waitForURL(/\/dev\/checkout\/cs_dev_/);
      await popup.close();
      await ctx.close();
    });
  });
