/**
 * Accounts: sign-up with the human check and the confirmation e-mail, a session that
 * survives a reload, sign-out, the forgot-password link to /reset-password, and a wrong password.
 * E-mails are read from the dev outbox (/dev/mail.json).
 */
import type { Page } from '@playwright/test';
import { expect, test } from '../support/test.ts';
import {
  appReady,
  CONFIRM_SUBJECT,
  createConfirmedAccount,
  expectRefreshTokenHidden,
  expectSignedIn,
  fillSignUpForm,
  PASSWORD,
  RECOVERY_SUBJECT,
  REFRESH_COOKIE,
  refreshCookieOf,
  signInFromHome,
  signInThroughModal,
  uniqueEmail,
  waitForMail,
} from '../support/auth.ts';
import { humanDelayPassed } from '../support/challenge.ts';
import { waitForMap } from '../support/map.ts';
import { recordToasts, toastsShown } from '../support/toasts.ts';

async function signOutFromProfile(page: Page): Promise<void> {
  await page.getByTestId('nav-profile').click();
  await expect(page).toHaveURL(/\/profile$/);
  await page.getByRole('button', { name: 'Déconnexion' }).click();
  await expect(page).toHaveURL(/127\.0\.0\.1:\d+\/$/);
  await expectSignedIn(page, false);
}

test.describe('accounts', () => {
  test('register with the human check, confirm by e-mail, stay signed in across a reload, sign out', async ({
    page,
    request,
  }) => {
    const email = uniqueEmail('inscription');
    await page.goto('/');
    await appReady(page);
    await waitForMap(page);
    await expectSignedIn(page, false);

    await page.getByTestId('nav-profile').click();
    const modal = page.getByTestId('auth-modal');
    await expect(modal.getByRole('heading', { name: 'Connexion' })).toBeVisible();
    await modal.getByRole('button', { name: 'Créer un compte' }).click();
    await expect(modal.getByRole('heading', { name: 'Créer un compte' })).toBeVisible();

    // The question is on screen: the clock of the too-fast rule starts now.
    const question = modal.getByTestId('challenge-question');
    await expect(question).toHaveText(/\?$/);
    const shownAt = Date.now();
    await fillSignUpForm(modal, { firstName: 'Camille', lastName: 'Martin', email });
    // The honeypots are there, hidden from people and from the tab order.
    for (const name of ['website', 'fax']) {
      const trap = modal.locator(`input[name="${name}"]`);
      await expect(trap).toHaveAttribute('tabindex', '-1');
      await expect(trap).toHaveValue('');
    }

    await humanDelayPassed(shownAt);
    // The terms of use must be accepted (launch.spec.ts checks the refusal).
    await modal.getByTestId('terms-checkbox').check();
    await modal.getByRole('button', { name: 'Créer un compte' }).click();
    await expect(modal.getByRole('heading', { name: 'Vérifiez votre email' })).toBeVisible();
    await expect(modal).toContainText(email);
    await expect(modal).toContainText("jusqu'à 5 minutes");

    // Before confirming, the password is refused with the product's French text.
    await modal.getByRole('button', { name: 'Retour à la connexion' }).click();
    await modal.getByLabel('Email').fill(email);
    await modal.getByLabel('Mot de passe', { exact: true }).fill(PASSWORD);
    await modal.getByRole('button', { name: 'Se connecter' }).click();
    await expect(modal.getByRole('alert')).toHaveText(
      'Veuillez vérifier votre email et cliquer sur le lien de confirmation',
    );

    const mail = await waitForMail(request, email, CONFIRM_SUBJECT);
    const link = mail.links.find((l) => l.includes('/api/auth/verify?type=signup'));
    expect(link).toBeTruthy();
    await recordToasts(page);
    await page.goto(link!);
    await appReady(page);
    // Signed in, and the token is gone from the address.
    await expect(page).toHaveURL(/127\.0\.0\.1:\d+\/$/);
    await expectSignedIn(page, true);
    await expect.poll(() => toastsShown(page)).toContain('Adresse email confirmée : vous êtes connecté.');
    // The session's refresh token is an HttpOnly cookie: out of every script's reach.
    const tokenAfterLink = await expectRefreshTokenHidden(page);

    await page.reload();
    await appReady(page);
    await expectSignedIn(page, true);
    await waitForMap(page);
    // The restore rotated the refresh token, in the cookie.
    const tokenAfterReload = await expectRefreshTokenHidden(page);
    expect(tokenAfterReload).not.toBe(tokenAfterLink);

    await page.getByTestId('nav-profile').click();
    const profile = page.getByTestId('own-profile');
    await expect(profile.getByTestId('profile-nickname')).toHaveText('Camille');
    await expect(profile.getByTestId('profile-email')).toHaveText(email);
    await expect(profile.getByRole('link', { name: 'Publier' })).toHaveAttribute('href', '/create');
    await expect(profile.getByRole('link', { name: 'Admin' })).toHaveCount(0);

    await page.getByRole('button', { name: 'Déconnexion' }).click();
    await expect(page).toHaveURL(/127\.0\.0\.1:\d+\/$/);
    await expectSignedIn(page, false);
    // The server cleared the cookie and revoked the session: its refresh token no longer works.
    await expect.poll(() => refreshCookieOf(page)).toBeUndefined();
    const replay = await request.post('/api/auth/refresh', {
      headers: { cookie: `${REFRESH_COOKIE}=${tokenAfterReload}`, 'x-requested-with': 'moodmap' },
    });
    expect(replay.status()).toBe(401);
    // Without the CSRF header the endpoint does not even look at the cookie.
    const forged = await request.post('/api/auth/refresh', {
      headers: { cookie: `${REFRESH_COOKIE}=${tokenAfterReload}` },
    });
    expect(forged.status()).toBe(403);
    await page.reload();
    await appReady(page);
    await expectSignedIn(page, false);
  });

  test('forgot password: the e-mailed link opens /reset-password, the new password signs in', async ({
    page,
    request,
  }) => {
    const email = uniqueEmail('oubli');
    const newPassword = 'Nouveau2025Mot';
    await createConfirmedAccount(request, { email });

    await page.goto('/');
    await appReady(page);
    await page.getByTestId('nav-profile').click();
    const modal = page.getByTestId('auth-modal');
    await modal.getByRole('button', { name: 'Mot de passe oublié ?' }).click();
    await expect(modal.getByRole('heading', { name: 'Mot de passe oublié' })).toBeVisible();
    await modal.getByLabel('Email').fill(email);
    await modal.getByRole('button', { name: 'Envoyer le lien' }).click();
    await expect(modal.getByRole('heading', { name: 'Email envoyé' })).toBeVisible();
    await page.keyboard.press('Escape');

    const mail = await waitForMail(request, email, RECOVERY_SUBJECT);
    const link = mail.links.find((l) => l.includes('/api/auth/verify?type=recovery'));
    expect(link).toBeTruthy();
    await page.goto(link!);
    await expect(page).toHaveURL(/\/reset-password\?.*type=recovery/);
    await appReady(page);
    await expect(page.getByRole('heading', { name: 'Nouveau mot de passe' })).toBeVisible();
    const submit = page.getByRole('button', { name: 'Changer le mot de passe' });
    await expect(submit).toBeDisabled();
    await page.getByLabel('Nouveau mot de passe', { exact: true }).fill(newPassword);
    await page.getByLabel('Confirmer le mot de passe', { exact: true }).fill(`${newPassword}x`);
    await expect(page.getByText('Les mots de passe ne correspondent pas')).toBeVisible();
    await expect(submit).toBeDisabled();
    await page.getByLabel('Confirmer le mot de passe', { exact: true }).fill(newPassword);
    await expect(submit).toBeEnabled();
    await submit.click();
    await expect(page.getByRole('heading', { name: 'Mot de passe modifié !' })).toBeVisible();
    // The spent tokens leave the address; then the app goes home, signed in with the new session.
    await expect(page).toHaveURL(/\/reset-password$/);
    await expect(page).toHaveURL(/127\.0\.0\.1:\d+\/$/);
    await expectSignedIn(page, true);
    // The reset's new session went into the cookie, not into the page's storage.
    await expectRefreshTokenHidden(page);

    // The link served once.
    await page.goto(link!);
    await appReady(page);
    await expect(page.getByRole('alert')).toHaveText(
      'Lien de réinitialisation invalide ou expiré. Veuillez demander un nouveau lien.',
    );
    await page.getByRole('link', { name: "Retour à l'accueil" }).click();
    await appReady(page);

    await signOutFromProfile(page);
    await waitForMap(page);

    // The old password no longer works; the new one does.
    await signInThroughModal(page, email, PASSWORD);
    await expect(page.getByTestId('auth-modal').getByRole('alert')).toHaveText('Email ou mot de passe incorrect');
    const modalAgain = page.getByTestId('auth-modal');
    await modalAgain.getByLabel('Mot de passe', { exact: true }).fill(newPassword);
    await modalAgain.getByRole('button', { name: 'Se connecter' }).click();
    await expect(modalAgain).toHaveCount(0);
    await expectSignedIn(page, true);
    // After a sign-in through the modal: no refresh token in localStorage or document.cookie.
    await expectRefreshTokenHidden(page);
  });
});

test.describe('two tabs', () => {
  test('share the cookie session: a sign-in in one signs the other in, a sign-out signs it out', async ({
    page,
    request,
  }) => {
    const email = uniqueEmail('onglets');
    await createConfirmedAccount(request, { email });
    await page.goto('/');
    await appReady(page);
    const other = await page.context().newPage();
    await other.goto('/');
    await appReady(other);
    await expectSignedIn(other, false);

    await signInThroughModal(page, email, PASSWORD);
    await expectSignedIn(page, true);
    // The other tab joins through the shared HttpOnly cookie (it never saw a token).
    await expectSignedIn(other, true);
    await expectRefreshTokenHidden(other);

    // Both tabs refresh at once with the same cookie: the rotation grace keeps both signed in.
    const refreshed = await Promise.all(
      [page, other].map((p) =>
        p.evaluate(
          async () =>
            (
              await fetch('/api/auth/refresh', {
                method: 'POST',
                credentials: 'same-origin',
                headers: { 'X-Requested-With': 'moodmap' },
              })
            ).status,
        ),
      ),
    );
    expect(refreshed).toEqual([200, 200]);
    await other.reload();
    await appReady(other);
    await expectSignedIn(other, true);

    await signOutFromProfile(page);
    await expectSignedIn(other, false);
    await other.close();
  });
});

test.describe('admin account', () => {
  test("the admin address sees 'Admin' instead of 'Publier'; without a staff role /admin refuses it", async ({
    page,
    request,
  }) => {
    // ADMIN_EMAIL of the test server (playwright.config.ts).
    const email = 'admin@moodmap.test';
    await createConfirmedAccount(request, { email, firstName: 'Alex', lastName: 'Admin', allowExisting: true });
    await signInFromHome(page, email);
    await page.getByTestId('nav-profile').click();
    const profile = page.getByTestId('own-profile');
    await expect(profile.getByRole('link', { name: 'Publier' })).toHaveCount(0);
    await profile.getByRole('link', { name: 'Admin' }).click();
    await expect(page).toHaveURL(/\/admin$/);
    const panel = page.getByTestId('modal-panel');
    await expect(panel).toContainText('Accès refusé');
    await expect(panel).toContainText("Vous n'avez pas les permissions pour accéder à cette page.");
    await expect(panel).toContainText('Rôle actuel: Membre');
    // The admin address itself is never published: /api/config only says "you are the admin".
    const config = await page.evaluate(async () => (await fetch('/api/config')).text());
    expect(config).not.toContain('admin@moodmap.test');
  });
});

test.describe('accounts on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test("a wrong password shows 'Email ou mot de passe incorrect'", async ({ page, request }) => {
    const email = uniqueEmail('erreur');
    await createConfirmedAccount(request, { email });
    await page.goto('/');
    await appReady(page);
    await waitForMap(page);
    await page.getByTestId('nav-profile').click();
    const modal = page.getByTestId('auth-modal');
    await modal.getByLabel('Email').fill(email);
    await modal.getByLabel('Mot de passe', { exact: true }).fill('Mauvais2024Passe');
    await modal.getByRole('button', { name: 'Se connecter' }).click();
    await expect(modal.getByRole('alert')).toHaveText('Email ou mot de passe incorrect');
    await expectSignedIn(page, false);
  });
});
