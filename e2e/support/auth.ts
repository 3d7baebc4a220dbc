/** Account helpers for the browser journeys: unique addresses, the dev outbox, ready-made accounts. */
import { expect, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { humanDelayPassed, solveChallenge } from './challenge.ts';

export const PASSWORD = 'Carte2024Humeur';

let sequence = 0;

/** An address no other test (or earlier run on the same server) uses. */
export function uniqueEmail(label: string): string {
  return `${label}-${Date.now()}-${++sequence}@moodmap.test`;
}

export interface OutboxMail {
  to: string;
  subject: string;
  text: string;
  html: string;
  links: string[];
  sentAt: string;
}

/**
 * The dev outbox answers only to the machine itself, never to a relayed request. Every request
 * context of the runner sends the journey's X-Forwarded-For (support/test.ts, applied to new
 * contexts too), so the outbox is read with Node's own fetch, as a local tool would.
 */
async function readOutbox(to: string): Promise<OutboxMail[]> {
  const response = await fetch(`http://127.0.0.1:${process.env.E2E_PORT}/dev/mail.json?to=${encodeURIComponent(to)}`);
  if (!response.ok) throw new Error(`dev outbox: ${response.status} ${await response.text()}`);
  return (await response.json()) as OutboxMail[];
}

/** A staff role from the dev route, which answers unrelayed requests only: Node's own fetch, as for the outbox. */
export async function grantRole(email: string, role: 'moderator' | 'admin' | 'super_admin'): Promise<void> {
  const response = await fetch(`http://127.0.0.1:${process.env.E2E_PORT}/dev/role`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, role }),
  });
  if (!response.ok) throw new Error(`dev role: ${response.status} ${await response.text()}`);
}

/** The newest e-mail to `to` whose subject matches, waiting for it (sending may be in the background). */
export async function waitForMail(_request: APIRequestContext, to: string, subject: RegExp): Promise<OutboxMail> {
  let found: OutboxMail | undefined;
  await expect
    .poll(
      async () => {
        const mails = await readOutbox(to);
        found = mails.find((m) => subject.test(m.subject));
        return found !== undefined;
      },
      { timeout: 30_000, intervals: [200, 500, 1000] },
    )
    .toBe(true);
  return found!;
}

/** The mail's link into our API (`/api/auth/verify?...`), made relative to the test server. */
export function verifyLink(mail: OutboxMail): string {
  const link = mail.links.find((l) => l.includes('/api/auth/verify'));
  if (!link) throw new Error(`no verify link in "${mail.subject}"`);
  const url = new URL(link);
  return `${url.pathname}${url.search}`;
}

export const CONFIRM_SUBJECT = /Confirmez votre adresse email/;
export const RECOVERY_SUBJECT = /Réinitialisation de votre mot de passe/;

/**
 * A confirmed account made through the API (for journeys that are not about sign-up): the
 * challenge is solved like the page does, after the human delay, and the e-mail link opened.
 */
export async function createConfirmedAccount(
  request: APIRequestContext,
  {
    email,
    password = PASSWORD,
    firstName = 'Camille',
    lastName = 'Martin',
    allowExisting = false,
  }: { email: string; password?: string; firstName?: string; lastName?: string; allowExisting?: boolean },
): Promise<void> {
  const challenge = (await (await request.get('/api/auth/challenge')).json()) as { token: string; question: string };
  const shownAt = Date.now();
  const terms = (await (await request.get('/api/terms')).json()) as { current: { version: string } };
  await humanDelayPassed(shownAt);
  const signup = await request.post('/api/auth/signup', {
    data: {
      email,
      password,
      firstName,
      lastName,
      challengeToken: challenge.token,
      challengeAnswer: solveChallenge(challenge.question),
      website: '',
      fax: '',
      termsVersion: terms.current.version,
    },
  });
  // A fixed address (the admin's) may exist already when the suite reuses a data directory.
  if (allowExisting && signup.status() === 409) return;
  expect(signup.status(), await signup.text()).toBe(201);
  const mail = await waitForMail(request, email, CONFIRM_SUBJECT);
  const confirmed = await request.get(verifyLink(mail), { maxRedirects: 0 });
  expect(confirmed.status()).toBe(302);
  // The session is in the cookie the answer set; the address carries no token.
  expect(confirmed.headers().location).toBe('/?type=signup');
}

export const REFRESH_COOKIE = 'moodmap_refresh';

/**
 * The refresh token is the server's HttpOnly cookie (SameSite=Strict, Path=/api/auth),
 * which no script can read — not in localStorage or sessionStorage, not in `document.cookie`.
 * Returns the cookie's value, read through the browser's own jar.
 */
export async function expectRefreshTokenHidden(page: Page): Promise<string> {
  const cookie = (await page.context().cookies()).find((c) => c.name === REFRESH_COOKIE);
  expect(cookie, 'the refresh cookie').toBeDefined();
  expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/api/auth', secure: true });
  const seen = await page.evaluate(() => ({
    storage: JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }),
    cookies: document.cookie,
    legacy: localStorage.getItem('moodmap.refreshToken'),
  }));
  expect(seen.legacy).toBeNull();
  expect(seen.storage).not.toContain(cookie!.value);
  expect(seen.cookies).not.toContain(REFRESH_COOKIE);
  expect(seen.cookies).not.toContain(cookie!.value);
  return cookie!.value;
}

/** The refresh cookie in the page's browser context, or undefined once signed out. */
export async function refreshCookieOf(page: Page): Promise<string | undefined> {
  return (await page.context().cookies()).find((c) => c.name === REFRESH_COOKIE)?.value;
}

/** Waits for the start-up splash to go. */
export async function appReady(page: Page): Promise<void> {
  await expect(page.getByTestId('splash')).toHaveCount(0, { timeout: 30_000 });
}

/** The bottom navigation's first entry: 'Profil' when signed in, 'Se connecter' when not. */
export async function expectSignedIn(page: Page, signedIn: boolean): Promise<void> {
  const entry = page.getByTestId('nav-profile');
  if (signedIn) {
    await expect(entry).toHaveText('Profil');
    await expect(entry).toHaveAttribute('href', '/profile');
  } else {
    await expect(entry).toHaveText('Se connecter');
  }
}

/** Fills the registration form of the open auth modal and answers its human check (on screen already). */
export async function fillSignUpForm(
  modal: Locator,
  {
    firstName,
    lastName,
    email,
    password = PASSWORD,
  }: { firstName: string; lastName: string; email: string; password?: string },
): Promise<void> {
  await modal.getByLabel('Prénom').fill(firstName);
  await modal.getByLabel('Nom', { exact: true }).fill(lastName);
  await modal.getByLabel('Email').fill(email);
  await modal.getByLabel('Mot de passe', { exact: true }).fill(password);
  await modal.getByLabel('Confirmer le mot de passe', { exact: true }).fill(password);
  const question = await modal.getByTestId('challenge-question').innerText();
  await modal.getByLabel(question).fill(solveChallenge(question));
}

/** Opens the login modal from the bottom navigation and signs in. */
export async function signInThroughModal(page: Page, email: string, password: string): Promise<void> {
  await page.getByTestId('nav-profile').click();
  const modal = page.getByTestId('auth-modal');
  await expect(modal).toContainText('Connexion');
  await modal.getByLabel('Email').fill(email);
  await modal.getByLabel('Mot de passe', { exact: true }).fill(password);
  await modal.getByRole('button', { name: 'Se connecter' }).click();
}

/** Opens the app at its home, signs in through the modal and waits for the signed-in navigation. */
export async function signInFromHome(page: Page, email: string, password = PASSWORD): Promise<void> {
  await page.goto('/');
  await appReady(page);
  await signInThroughModal(page, email, password);
  await expectSignedIn(page, true);
}
