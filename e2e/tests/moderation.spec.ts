/**
 * Moderation: three people report a post → it leaves the map; a moderator finds it in
 * 'Signalements' and removes it with a reason; the reporters see the outcome; the author sees
 * the statement of reasons and appeals; an admin (another moderator) reverses it and the post is
 * back on the map. Then the users list: a super_admin sees rows, a moderator an empty list, a
 * plain user 'Accès refusé'. The map is WebGL: a post is found through `window.__MOODMAP_MAP__`
 * (layer `mm-markers`, property `pid`), with the API's viewport as a second witness.
 * Staff roles come from `POST /dev/role` (development only), since the CLI cannot open the
 * server's PGlite while it runs.
 */
import type { APIRequestContext, Browser, Locator, Page } from '@playwright/test';
import { PASSWORD, appReady, createConfirmedAccount, grantRole, signInFromHome, uniqueEmail } from '../support/auth.ts';
import { openMapAt } from '../support/map.ts';
import { clientAddresses, expect, test } from '../support/test.ts';

const PARIS = { latitude: 48.8566, longitude: 2.3522 };

const clientAddress = clientAddresses('203.0.114', 11);

async function tokenOf(request: APIRequestContext, email: string): Promise<string> {
  const res = await request.post('/api/auth/login', { data: { email, password: PASSWORD }, headers: clientAddress() });
  expect(res.status(), await res.text()).toBe(200);
  return ((await res.json()) as { accessToken: string }).accessToken;
}

/** A desktop browser of its own, from another client address (each person has their own rate limits). */
async function desktopPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext({
    viewport: { width: 1440, height: 900 },
    locale: 'fr-FR',
    extraHTTPHeaders: clientAddress(),
  });
  return context.newPage();
}

/** A desktop browser of its own, signed in as `email`. */
async function signedInDesktop(browser: Browser, email: string): Promise<Page> {
  const page = await desktopPage(browser);
  await signInFromHome(page, email);
  return page;
}

/** The moderation notice of a kind, on the signed-in person's profile. */
async function profileNotice(page: Page, kind: 'report_outcome' | 'statement'): Promise<Locator> {
  await page.getByTestId('nav-profile').click();
  return page.locator(`[data-testid="moderation-notice"][data-kind="${kind}"]`);
}

/** Whether the map draws the post (WebGL: its feature in the `mm-markers` layer). */
function onMap(page: Page, id: string): Promise<boolean> {
  return page.evaluate((postId) => {
    const map = (
      window as unknown as {
        __MOODMAP_MAP__?: { queryRenderedFeatures(o: { layers: string[] }): Array<{ properties: { pid?: string } }> };
      }
    ).__MOODMAP_MAP__;
    return Boolean(map?.queryRenderedFeatures({ layers: ['mm-markers'] }).some((f) => f.properties.pid === postId));
  }, id);
}

/** The same question to the API (what every viewer's map is built from). */
async function inViewport(request: APIRequestContext, id: string): Promise<boolean> {
  const res = await request.get('/api/posts/viewport?west=2.2&south=48.8&east=2.5&north=48.92&zoom=13');
  return ((await res.json()) as { points: Array<{ id: string }> }).points.some((p) => p.id === id);
}

test.describe
  .serial('moderation', () => {
    const emails = {
      author: uniqueEmail('auteur'),
      r1: uniqueEmail('temoin1'),
      r2: uniqueEmail('temoin2'),
      r3: uniqueEmail('temoin3'),
      moderator: uniqueEmail('moderateur'),
      admin: uniqueEmail('admin17'),
      superAdmin: uniqueEmail('superadmin'),
      user: uniqueEmail('membre'),
    };
    let postId = '';

    test.beforeAll(async ({ request, playwright, baseURL }) => {
      test.setTimeout(180_000);
      // Sign-ups are limited per client address (docs/product.md, Limits): each account from its own.
      for (const [key, email] of Object.entries(emails)) {
        const client = await playwright.request.newContext({ baseURL, extraHTTPHeaders: clientAddress() });
        await createConfirmedAccount(client, { email, firstName: key, lastName: 'Test' });
        await client.dispose();
      }
      for (const [email, role] of [
        [emails.moderator, 'moderator'],
        [emails.admin, 'admin'],
        [emails.superAdmin, 'super_admin'],
      ] as const) {
        await grantRole(email, role);
      }
      const token = await tokenOf(request, emails.author);
      const created = await request.post('/api/posts', {
        headers: { Authorization: `Bearer ${token}`, ...clientAddress() },
        data: { category: 'angry', content: 'Publication à modérer', ...PARIS },
      });
      expect(created.status(), await created.text()).toBe(201);
      postId = ((await created.json()) as { post: { id: string } }).post.id;
    });

    test('reported three times by new accounts, removed by a moderator, appealed, restored', async ({
      browser,
      request,
    }) => {
      test.setTimeout(240_000);
      const visitor = await desktopPage(browser);
      await openMapAt(visitor, { ...PARIS, zoom: 13 });
      await expect.poll(() => onMap(visitor, postId), { timeout: 30_000 }).toBe(true);

      for (const email of [emails.r1, emails.r2, emails.r3]) {
        const token = await tokenOf(request, email);
        const res = await request.post(`/api/posts/${postId}/report`, {
          headers: { Authorization: `Bearer ${token}` },
          data: { reason: 'harassment', details: 'Propos blessants' },
        });
        expect(res.status()).toBe(201);
      }
      // Accounts made today do not count toward hiding a post (one person could make three): it
      // stays on the map, and the reports wait in the queue.
      expect(await inViewport(request, postId)).toBe(true);

      // The moderator removes it with a reason.
      const mod = await signedInDesktop(browser, emails.moderator);
      await mod.goto('/admin');
      const panel = mod.getByTestId('admin-panel');
      await expect(panel.getByTestId('role-badge')).toHaveText('Modérateur');
      await panel.getByTestId('admin-tab-reports').click();
      const group = panel.locator(`[data-testid="report-group"][data-post-id="${postId}"]`);
      await expect(group).toContainText('3 signalement(s)');
      await expect(group.getByTestId('report-snapshot')).toHaveText('Publication à modérer');
      await group.getByTestId('decision-action').selectOption('remove');
      await group.getByTestId('decision-reason').selectOption('harassment');
      await group.getByTestId('decision-note').fill('Insultes envers un voisin');
      await group.getByTestId('decision-submit').click();
      await expect(mod.getByText('Décision enregistrée')).toBeVisible();
      await expect(group).toHaveCount(0);
      // Gone from the visitor's map (realtime post.deleted) and from everyone's viewport.
      await expect.poll(() => onMap(visitor, postId), { timeout: 30_000 }).toBe(false);
      expect(await inViewport(request, postId)).toBe(false);

      // A reporter sees the outcome in their profile.
      const reporter = await signedInDesktop(browser, emails.r1);
      const outcome = await profileNotice(reporter, 'report_outcome');
      await expect(outcome).toContainText('Suite donnée à votre signalement');
      await expect(outcome).toContainText('la publication a été retirée : « Harcèlement ou intimidation »');

      // The author reads the statement of reasons and appeals.
      const author = await signedInDesktop(browser, emails.author);
      const statement = await profileNotice(author, 'statement');
      await expect(statement).toContainText('Exposé des motifs');
      await expect(statement).toContainText('Ce qui a été décidé : Retirer la publication.');
      await expect(statement).toContainText('Précision du modérateur : Insultes envers un voisin');
      await statement.getByTestId('appeal-open').click();
      await statement.getByTestId('appeal-text').fill("C'était une citation, pas une insulte.");
      await statement.getByTestId('appeal-submit').click();
      await expect(author.getByText('Recours envoyé. Un autre modérateur va examiner votre demande.')).toBeVisible();

      // The moderator who decided cannot decide the appeal; an admin reverses it.
      await panel.getByRole('button', { name: 'Actualiser', exact: true }).click();
      await expect(panel.getByTestId('appeal-item')).toContainText('Vous avez pris la décision initiale');
      const admin = await signedInDesktop(browser, emails.admin);
      await admin.goto('/admin');
      await admin.getByTestId('admin-tab-reports').click();
      const appeal = admin.getByTestId('appeal-item').filter({ hasText: "C'était une citation" });
      await appeal.getByTestId('appeal-reverse').click();
      await expect(admin.getByText('Recours traité')).toBeVisible();

      // Back on the map.
      await expect.poll(() => inViewport(request, postId)).toBe(true);
      await visitor.reload();
      await appReady(visitor);
      await expect.poll(() => onMap(visitor, postId), { timeout: 30_000 }).toBe(true);
      for (const page of [visitor, mod, reporter, author, admin]) await page.context().close();
    });

    test('the users list: rows for a super_admin, empty for a moderator, refused to a user', async ({ browser }) => {
      const page = await signedInDesktop(browser, emails.superAdmin);
      await page.goto('/admin');
      const panel = page.getByTestId('admin-panel');
      await expect(panel.getByTestId('role-badge')).toHaveText('Super administrateur');
      await expect(panel.getByTestId('admin-user-row').first()).toContainText('Confidentiel');
      await expect(panel.getByTestId('admin-user-row').first()).toContainText('...');
      await expect(panel).not.toContainText('@');
      await panel.getByTestId('admin-tab-logs').click();
      await expect(panel.getByTestId('admin-log-row').first()).toBeVisible();
      await page.context().close();

      const mod = await signedInDesktop(browser, emails.moderator);
      await mod.goto('/admin');
      await expect(mod.getByTestId('admin-tab-users')).toHaveText('Utilisateurs (0)');
      await expect(mod.getByTestId('admin-user-row')).toHaveCount(0);
      await mod.context().close();

      const user = await signedInDesktop(browser, emails.user);
      await user.goto('/admin');
      await expect(user.getByTestId('modal-panel')).toContainText('Accès refusé');
      await expect(user.getByTestId('modal-panel')).toContainText('Rôle actuel: Membre');
      await user.context().close();
    });
  });
