/**
 * axe-core (WCAG 2.0/2.1/2.2 A and AA rules) on the map (a post's card open,
 * then the list view), the create page, the own profile, the messages (a conversation open) and
 * the admin panel, in the light and the dark theme: no serious or critical violation. The
 * violations found are printed, each with its nodes, so a failure says what to fix.
 */
import AxeBuilder from '@axe-core/playwright';
import type { APIRequestContext, Browser, Page } from '@playwright/test';
import { PASSWORD, createConfirmedAccount, grantRole, signInFromHome, uniqueEmail } from '../support/auth.ts';
import { openMapAt, settle, tapPost, waitForMap } from '../support/map.ts';
import { clientAddresses, expect, test } from '../support/test.ts';

const clientAddress = clientAddresses('203.0.120');
const PARIS = { latitude: 48.8566, longitude: 2.3522 };
const THEMES = ['light', 'dark'] as const;

async function login(request: APIRequestContext, email: string): Promise<{ token: string; id: string }> {
  const res = await request.post('/api/auth/login', { data: { email, password: PASSWORD }, headers: clientAddress() });
  expect(res.status(), await res.text()).toBe(200);
  const body = (await res.json()) as { accessToken: string; user: { id: string } };
  return { token: body.accessToken, id: body.user.id };
}

/** Runs axe on the page and fails on any serious or critical violation, listing them all. */
async function expectNoSeriousViolations(page: Page, screen: string): Promise<void> {
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'])
    // MapLibre's WebGL canvas only: its pixels are no text or control for axe to judge (the
    // markers on it have their accessible buttons, checked with the rest of the page).
    .exclude('.maplibregl-canvas')
    .analyze();
  const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  const report = serious
    .map(
      (v) =>
        `${v.id} (${v.impact}): ${v.help}\n${v.nodes.map((n) => `  - ${n.target.join(' ')}: ${n.html.slice(0, 160)}\n    ${[...n.any, ...n.all, ...n.none].map((c) => c.message).join(' / ')}`).join('\n')}`,
    )
    .join('\n\n');
  if (serious.length) console.log(`axe on ${screen}:\n${report}`);
  expect(serious, `axe on ${screen}:\n${report}`).toEqual([]);
}

async function themed(browser: Browser, theme: (typeof THEMES)[number]): Promise<Page> {
  const context = await browser.newContext({
    viewport: { width: 1440, height: 900 },
    locale: 'fr-FR',
    timezoneId: 'Europe/Paris',
    colorScheme: theme,
    extraHTTPHeaders: clientAddress(),
  });
  return context.newPage();
}

test.describe
  .serial('accessibility of every screen (axe-core)', () => {
    const staff = uniqueEmail('a11y-staff');
    const author = uniqueEmail('a11y-author');
    let postId = '';

    test.beforeAll(async ({ playwright, baseURL, request }) => {
      test.setTimeout(120_000);
      for (const [email, firstName] of [
        [staff, 'Inès'],
        [author, 'Léa'],
      ] as const) {
        const client = await playwright.request.newContext({ baseURL, extraHTTPHeaders: clientAddress() });
        await createConfirmedAccount(client, { email, firstName, lastName: 'Test' });
        await client.dispose();
      }
      await grantRole(staff, 'super_admin');
      const a = await login(request, author);
      const created = await request.post('/api/posts', {
        headers: { Authorization: `Bearer ${a.token}`, ...clientAddress() },
        data: { category: 'money', content: 'Vide-grenier rue des Martyrs, des livres à un euro !', ...PARIS },
      });
      expect(created.status(), await created.text()).toBe(201);
      postId = ((await created.json()) as { post: { id: string } }).post.id;
      // A conversation with a message each way, so the messages screen shows bubbles.
      const s = await login(request, staff);
      const opened = await request.post('/api/conversations', {
        data: { userId: a.id },
        headers: { Authorization: `Bearer ${s.token}`, ...clientAddress() },
      });
      expect(opened.ok(), await opened.text()).toBe(true);
      const conversationId = ((await opened.json()) as { conversation: { id: string } }).conversation.id;
      for (const [token, content] of [
        [s.token, 'Bonjour, il reste des BD ?'],
        [a.token, 'Oui, venez vite !'],
      ] as const) {
        const sent = await request.post(`/api/conversations/${conversationId}/messages`, {
          data: { content },
          headers: { Authorization: `Bearer ${token}`, ...clientAddress() },
        });
        expect(sent.status(), await sent.text()).toBe(201);
      }
    });

    test.afterAll(async ({ request }) => {
      if (!postId) return;
      const a = await login(request, author).catch(() => null);
      if (a)
        await request.delete(`/api/posts/${postId}`, {
          headers: { Authorization: `Bearer ${a.token}`, ...clientAddress() },
        });
    });

    for (const theme of THEMES) {
      test(`map, list, create, profile, messages and admin (${theme})`, async ({ browser }) => {
        test.setTimeout(180_000);
        const page = await themed(browser, theme);
        await signInFromHome(page, staff);
        await openMapAt(page, { ...PARIS, zoom: 14 });
        await expect(page.locator('html')).toHaveClass(theme === 'dark' ? /dark/ : /^(?!.*dark)/);
        await expectNoSeriousViolations(page, `map (${theme})`);

        await tapPost(page, postId);
        await expect(page.getByTestId('post-popup')).not.toHaveAttribute('aria-busy', 'true', { timeout: 30_000 });
        await settle(page);
        await expectNoSeriousViolations(page, `map with a card (${theme})`);
        await page.keyboard.press('Escape');

        await page.getByTestId('view-list').click();
        await expect(page.getByTestId('post-list-item').first()).toBeVisible();
        await expectNoSeriousViolations(page, `list view (${theme})`);
        await page.getByTestId('view-map').click();

        await page.getByTestId('nav-create').click();
        await expect(page.getByTestId('create-form')).toBeVisible();
        await expect(page.getByTestId('location-picker')).toHaveAttribute('data-map-loaded', 'true', {
          timeout: 45_000,
        });
        await expectNoSeriousViolations(page, `create (${theme})`);

        await page.goto('/profile');
        await expect(page.getByTestId('modal-panel')).toBeVisible();
        await waitForMap(page);
        await page.waitForLoadState('networkidle');
        await expectNoSeriousViolations(page, `profile (${theme})`);

        await page.goto('/messages');
        await page.getByTestId('conversation-item').first().click();
        await expect(page.getByTestId('message-bubble')).toHaveCount(2);
        await expectNoSeriousViolations(page, `messages (${theme})`);

        await page.goto('/admin');
        await expect(page.getByTestId('role-badge')).toHaveText('Super administrateur');
        await page.waitForLoadState('networkidle');
        await expectNoSeriousViolations(page, `admin (${theme})`);
        await page.context().close();
      });
    }
  });
