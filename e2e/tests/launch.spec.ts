/**
 * Launch: register → the CGU link opens the 14 sections and acceptance is required;
 * the member posts and sends a message through the app; a super_admin opens 'Statistiques' and
 * sees the day's counts match; emergency mode on → creating a post shows the French refusal and
 * the banner; off → posting works.
 *
 * A super_admin is granted with `npm run user:role`, which needs the data directory to itself
 * (PGlite: one process), so this journey runs its own server on a fresh data directory and
 * restarts it once around the grant.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { type APIRequestContext, type Page, request as playwrightRequest } from '@playwright/test';
import {
  CONFIRM_SUBJECT,
  PASSWORD,
  appReady,
  createConfirmedAccount,
  expectSignedIn,
  fillSignUpForm,
  signInFromHome,
  uniqueEmail,
  verifyLink,
  waitForMail,
} from '../support/auth.ts';
import { humanDelayPassed } from '../support/challenge.ts';
import { fillPostForm, publishOnLand } from '../support/create.ts';
import { freePort } from '../support/free-port.ts';
import { expect, test } from '../support/test.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
// A server of this journey's own, beside the suite's: on a port free now.
const port = await freePort();
const baseURL = `http://127.0.0.1:${port}`;
const EMERGENCY_TEXT = 'Service temporairement limité pour maintenir la qualité. Réessayez dans quelques minutes.';
const TERMS_REQUIRED = "Vous devez accepter les conditions d'utilisation";
const BOSS = uniqueEmail('super-admin');
const MEMBER = uniqueEmail('camille-cgu');

test.use({ baseURL });
test.describe.configure({ mode: 'serial' });

let dataDir = '';
let server: ChildProcess | null = null;
let previousPort: string | undefined;
let api: APIRequestContext;

async function startServer(): Promise<ChildProcess> {
  const child = spawn(process.execPath, [path.join(root, 'server/src/main.ts')], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      PUBLIC_URL: baseURL,
      NODE_ENV: 'development',
      LOG_LEVEL: 'warn',
      TRUST_PROXY: '1',
    },
  });
  const deadline = Date.now() + 120_000;
  for (;;) {
    const ok = await fetch(`${baseURL}/api/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return child;
    if (Date.now() > deadline || child.exitCode !== null) throw new Error('launch server did not start');
    await new Promise((r) => setTimeout(r, 300));
  }
}

async function stopServer(): Promise<void> {
  if (!server || server.exitCode !== null) return;
  const exited = once(server, 'exit');
  server.kill('SIGTERM');
  await exited;
  server = null;
}

async function apiLogin(email: string): Promise<{ token: string; id: string }> {
  const res = await api.post('/api/auth/login', { data: { email, password: PASSWORD } });
  expect(res.status(), await res.text()).toBe(200);
  const body = (await res.json()) as { accessToken: string; user: { id: string } };
  return { token: body.accessToken, id: body.user.id };
}

test.beforeAll(async () => {
  test.setTimeout(300_000);
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'moodmap-launch-'));
  // The outbox helpers read the server of E2E_PORT: this journey's, until it ends.
  previousPort = process.env.E2E_PORT;
  process.env.E2E_PORT = String(port);
  api = await playwrightRequest.newContext({ baseURL, extraHTTPHeaders: { 'x-forwarded-for': '203.0.113.18' } });
  server = await startServer();
  await createConfirmedAccount(api, { email: BOSS, firstName: 'Sacha', lastName: 'Durand' });
  await stopServer();
  await promisify(execFile)(process.execPath, [path.join(root, 'server/src/cli/user-role.ts'), BOSS, 'super_admin'], {
    cwd: root,
    env: { ...process.env, DATA_DIR: dataDir, INIT_CWD: root },
  });
  server = await startServer();
});

test.afterAll(async () => {
  await api?.dispose();
  await stopServer();
  if (previousPort === undefined) delete process.env.E2E_PORT;
  else process.env.E2E_PORT = previousPort;
});

let memberPage: Page;
let postId = '';

test('register: the CGU link opens the 14 sections, and acceptance is required', async ({ browser }) => {
  const context = await browser.newContext({
    baseURL,
    viewport: { width: 1440, height: 900 },
    locale: 'fr-FR',
    colorScheme: 'light',
    extraHTTPHeaders: { 'x-forwarded-for': '203.0.113.19' },
  });
  memberPage = await context.newPage();
  const page = memberPage;
  await page.goto('/');
  await appReady(page);
  await page.getByTestId('nav-profile').click();
  const modal = page.getByTestId('auth-modal');
  await modal.getByRole('button', { name: 'Créer un compte' }).click();
  const question = modal.getByTestId('challenge-question');
  await expect(question).toHaveText(/\?$/);
  const shownAt = Date.now();
  await fillSignUpForm(modal, { firstName: 'Camille', lastName: 'Lefèvre', email: MEMBER });

  // Not accepted: refused, nothing sent.
  await modal.getByRole('button', { name: 'Créer un compte' }).click();
  await expect(modal.getByRole('alert')).toHaveText(TERMS_REQUIRED);

  // The link opens the 14 numbered sections.
  await modal.getByTestId('terms-link').click();
  const terms = page.getByTestId('terms-modal');
  await expect(terms).toBeVisible();
  await expect(terms).toContainText("Conditions Générales d'Utilisation");
  const sections = terms.getByTestId('terms-section');
  await expect(sections).toHaveCount(14);
  await expect(sections.first()).toContainText('1. Objet');
  await expect(sections.nth(6)).toContainText('2,50 €');
  await expect(sections.nth(11)).toContainText('30 jours');
  await expect(sections.last()).toContainText('14. Contact');
  await page.keyboard.press('Escape');
  await expect(terms).toHaveCount(0);

  await modal.getByTestId('terms-checkbox').check();
  await humanDelayPassed(shownAt);
  await modal.getByRole('button', { name: 'Créer un compte' }).click();
  await expect(modal.getByRole('heading', { name: 'Vérifiez votre email' })).toBeVisible();
  const mail = await waitForMail(api, MEMBER, CONFIRM_SUBJECT);
  await page.goto(verifyLink(mail));
  await appReady(page);
  await expectSignedIn(page, true);
});

test('the member posts and sends a message through the app', async () => {
  const page = memberPage;
  await page.getByTestId('nav-create').click();
  await expect(page.getByTestId('create-form')).toBeVisible();
  await fillPostForm(page, 'happy', 'Premier jour sur MoodMap, bonjour la Réunion !');
  postId = await publishOnLand(page, 30_000);

  // A conversation with the super_admin, then one message typed and sent in the chat.
  const member = await apiLogin(MEMBER);
  const boss = await apiLogin(BOSS);
  const opened = await api.post('/api/conversations', {
    data: { userId: boss.id },
    headers: { Authorization: `Bearer ${member.token}` },
  });
  expect(opened.ok(), await opened.text()).toBe(true);
  await page.goto('/messages');
  await appReady(page);
  await page.getByTestId('conversation-item').first().click();
  await page.getByTestId('message-input').fill('Bonjour, merci pour l’accueil !');
  await page.getByTestId('message-send').click();
  await expect(page.getByTestId('message-bubble')).toHaveCount(1);
});

test("a super_admin sees the day's counts in 'Statistiques' (both themes), and switches emergency mode", async ({
  browser,
}) => {
  const context = await browser.newContext({
    baseURL,
    viewport: { width: 1440, height: 900 },
    locale: 'fr-FR',
    colorScheme: 'light',
    extraHTTPHeaders: { 'x-forwarded-for': '203.0.113.20' },
  });
  const page = await context.newPage();
  await signInFromHome(page, BOSS);
  await page.goto('/admin');
  await expect(page.getByTestId('role-badge')).toHaveText('Super administrateur');
  await page.getByTestId('stats-tab-button').click();
  const tab = page.getByTestId('stats-tab');
  await expect(tab).toBeVisible();
  // What this journey did today, as the server counted it: two sign-ups (the super_admin's and
  // the member's through the app), one post, one message.
  await expect(page.getByTestId('stats-today-signup')).toHaveText('2');
  await expect(page.getByTestId('stats-today-post_created')).toHaveText('1');
  await expect(page.getByTestId('stats-today-message_sent')).toHaveText('1');
  await expect(page.getByTestId('stats-today-messages')).toHaveText('1');
  await expect(page.getByTestId('stats-posts-live')).toHaveText('1');
  await expect(page.getByTestId('stats-costs')).toContainText('Requêtes serveur');
  await expect(page.getByTestId('stats-estimated-cost')).toContainText('€');
  await expect(page.getByTestId('stats-events-chart').locator('canvas')).toHaveCount(1);
  await page.emulateMedia({ colorScheme: 'dark' });
  await expect(page.locator('html')).toHaveClass(/dark/);
  await page.emulateMedia({ colorScheme: 'light' });

  // The CSV export holds the same day's numbers.
  const download = page.waitForEvent('download');
  await page.getByTestId('stats-export').click();
  const file = await (await download).path();
  const csv = (await import('node:fs')).readFileSync(file, 'utf8');
  expect(csv).toContain('Jour;Inscriptions;Connexions;Publications;Messages envoyés');

  // Emergency mode on: the member's new post is refused with its French text, under the banner.
  const member = await apiLogin(MEMBER);
  const removed = await api.delete(`/api/posts/${postId}`, { headers: { Authorization: `Bearer ${member.token}` } });
  expect(removed.status()).toBe(204);
  await page.getByTestId('emergency-switch').click();
  await expect(page.getByTestId('emergency-switch')).toHaveText("Désactiver le mode d'urgence");

  const mp = memberPage;
  await mp.goto('/create');
  await appReady(mp);
  await expect(mp.getByTestId('emergency-banner')).toBeVisible();
  await fillPostForm(mp, 'happy', 'Encore une belle journée');
  await mp.getByTestId('create-submit').click();
  await expect(mp.getByTestId('create-error')).toHaveText(EMERGENCY_TEXT);

  // Off: the banner goes and posting works.
  await page.getByTestId('emergency-switch').click();
  await expect(page.getByTestId('emergency-switch')).toHaveText("Activer le mode d'urgence");
  await mp.reload();
  await appReady(mp);
  await expect(mp.getByTestId('emergency-banner')).toHaveCount(0);
  await fillPostForm(mp, 'happy', 'Encore une belle journée');
  await mp.getByTestId('create-submit').click();
  await expect(mp.getByTestId('post-popup')).toBeVisible({ timeout: 30_000 });
  await context.close();
});
