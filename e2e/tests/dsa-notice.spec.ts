/**
 * Notice of illegal content (DSA Art. 16) journey: a visitor, not signed in, opens a post's card,
 * follows 'Signaler un contenu illicite', fills the form and is told to confirm by e-mail; the
 * mailed link (read from the dev outbox) confirms it; a moderator finds the post in
 * 'Signalements' marked as a DSA notice, with the notifier's name and explanation.
 */
import type { Browser, Page } from '@playwright/test';
import {
  PASSWORD,
  appReady,
  createConfirmedAccount,
  grantRole,
  signInFromHome,
  uniqueEmail,
  waitForMail,
} from '../support/auth.ts';
import { openMapAt, tapPost } from '../support/map.ts';
import { shotBothThemes } from '../support/screens.ts';
import { clientAddresses, expect, test } from '../support/test.ts';

const LYON = { latitude: 45.764, longitude: 4.8357 };
const clientAddress = clientAddresses('203.0.122');

async function desktopPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext({
    viewport: { width: 1440, height: 900 },
    locale: 'fr-FR',
    extraHTTPHeaders: clientAddress(),
  });
  return context.newPage();
}

test('a visitor notifies a post as illegal, confirms by e-mail, and a moderator sees it marked', async ({
  browser,
  playwright,
  baseURL,
}) => {
  test.setTimeout(180_000);
  const author = uniqueEmail('auteur-dsa');
  const moderator = uniqueEmail('moderateur-dsa');
  const notifier = uniqueEmail('notifiant');
  for (const email of [author, moderator]) {
    const client = await playwright.request.newContext({ baseURL, extraHTTPHeaders: clientAddress() });
    await createConfirmedAccount(client, { email, firstName: 'Test', lastName: 'Dsa' });
    await client.dispose();
  }
  await grantRole(moderator, 'moderator');
  const api = await playwright.request.newContext({ baseURL, extraHTTPHeaders: clientAddress() });
  const login = await api.post('/api/auth/login', { data: { email: author, password: PASSWORD } });
  expect(login.status(), await login.text()).toBe(200);
  const { accessToken } = (await login.json()) as { accessToken: string };
  const created = await api.post('/api/posts', {
    headers: { Authorization: `Bearer ${accessToken}` },
    data: { category: 'angry', content: 'Publication notifiée comme illicite', ...LYON },
  });
  expect(created.status(), await created.text()).toBe(201);
  const postId = ((await created.json()) as { post: { id: string } }).post.id;
  await api.dispose();

  // The visitor, not signed in, notifies it from its card.
  const visitor = await desktopPage(browser);
  await openMapAt(visitor, { ...LYON, zoom: 13 });
  await tapPost(visitor, postId);
  await visitor.getByTestId('post-dsa-notice').click();
  await expect(visitor).toHaveURL(new RegExp(`/signalement-illicite\\?post=${postId}`));
  const form = visitor.getByTestId('dsa-form');
  await expect(form.getByTestId('dsa-location')).toHaveValue(postId);
  await form.getByTestId('dsa-explanation').fill('Ce message incite à la violence contre une personne nommée.');
  await form.getByTestId('dsa-name').fill('Camille Durand');
  await form.getByTestId('dsa-email').fill(notifier);
  await form.getByTestId('dsa-good-faith').check();
  await shotBothThemes(visitor, 'dsa-notice-form-desktop');
  await form.getByTestId('dsa-submit').click();
  await expect(visitor.getByTestId('dsa-sent')).toHaveText(/confirmez-la en ouvrant le lien/, { timeout: 30_000 });

  // The mailed link confirms it.
  const mail = await waitForMail(visitor.request, notifier, /confirmez votre notification/);
  const link = mail.links.find((l) => l.includes('/signalement-illicite/confirmer'));
  expect(link).toBeDefined();
  const url = new URL(link!);
  await visitor.goto(url.pathname + url.search);
  // The page loads the map and the answer's schemas first: slow on a busy machine.
  await expect(visitor.getByTestId('dsa-confirmed')).toContainText('Votre notification est confirmée', {
    timeout: 45_000,
  });
  await waitForMail(visitor.request, notifier, /accusé de réception/);

  // The moderator sees it in the queue, marked as a DSA notice.
  const mod = await desktopPage(browser);
  await signInFromHome(mod, moderator);
  await mod.goto('/admin');
  await appReady(mod);
  await mod.getByTestId('admin-tab-reports').click();
  const group = mod.locator(`[data-testid="report-group"][data-post-id="${postId}"]`);
  await expect(group).toContainText('1 signalement(s)');
  const notice = group.getByTestId('report-dsa-notice');
  await expect(notice).toContainText('Notification DSA (contenu illicite)');
  await expect(notice).toContainText('Notifié par Camille Durand');
  await expect(notice).toContainText('incite à la violence');
  await shotBothThemes(mod, 'dsa-notice-queue-desktop');
  for (const page of [visitor, mod]) await page.context().close();
});
