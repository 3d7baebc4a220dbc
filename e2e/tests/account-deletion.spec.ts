/**
 * 'Supprimer mon compte': Léa opens the dialog from her profile (what goes, what stays), types a
 * wrong password and is told so, then her own; she is signed out with a toast, her post leaves
 * the map of Marc, a visitor watching it, and her address no longer signs in. The dialog is
 * photographed in the light and the dark theme.
 */
import {
  appReady,
  createConfirmedAccount,
  expectSignedIn,
  PASSWORD,
  signInFromHome,
  uniqueEmail,
} from '../support/auth.ts';
import { expectPostMarker, openMapAt } from '../support/map.ts';
import { shot } from '../support/screens.ts';
import { clientAddresses, expect, test } from '../support/test.ts';

const REUNION = { latitude: -21.0667, longitude: 55.2167 };
const clientAddress = clientAddresses('203.0.113', 120);

test('Léa deletes her account: her post leaves the map and her sign-in is refused', async ({
  page,
  request,
  browser,
}) => {
  const email = uniqueEmail('lea-suppression');
  await createConfirmedAccount(request, { email, firstName: 'Léa' });
  const session = await request.post('/api/auth/login', { data: { email, password: PASSWORD } });
  expect(session.status()).toBe(200);
  const { accessToken } = (await session.json()) as { accessToken: string };
  const created = await request.post('/api/posts', {
    headers: { authorization: `Bearer ${accessToken}` },
    data: { category: 'love', content: 'Dernier coucher de soleil avant de partir', ...REUNION },
  });
  expect(created.status(), await created.text()).toBe(201);
  const postId = ((await created.json()) as { post: { id: string } }).post.id;

  // Marc, a visitor in another browser, watches La Réunion.
  const marc = await browser.newPage({
    viewport: { width: 1280, height: 800 },
    locale: 'fr-FR',
    extraHTTPHeaders: clientAddress(),
  });
  await openMapAt(marc, { ...REUNION, zoom: 11 });
  await expectPostMarker(marc, postId);

  await signInFromHome(page, email);
  await page.goto('/profile');
  await appReady(page);
  await page.getByTestId('account-delete').click();
  const dialog = page.getByTestId('account-delete-dialog');
  await expect(dialog).toContainText('Ce qui est supprimé');
  await expect(dialog).toContainText('Ce qui est conservé');
  await expect(dialog).toContainText('Vos paiements sont conservés 10 ans sans votre identité');
  for (const theme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: theme });
    await shot(page, `account-delete-dialog-${theme}`);
  }

  await dialog.getByTestId('account-delete-password').fill('PasLeBon2024');
  await dialog.getByTestId('account-delete-confirm').click();
  await expect(dialog.getByRole('alert')).toHaveText('Mot de passe incorrect');
  await expectPostMarker(marc, postId);

  await dialog.getByTestId('account-delete-password').fill(PASSWORD);
  await dialog.getByTestId('account-delete-confirm').click();
  await expect(page.getByText('Votre compte a été supprimé')).toBeVisible();
  await expectSignedIn(page, false);
  await expectPostMarker(marc, postId, { drawn: false });

  const again = await request.post('/api/auth/login', { data: { email, password: PASSWORD } });
  expect(again.status()).toBe(400);
  expect(((await again.json()) as { error: { message: string } }).error.message).toBe(
    'Email ou mot de passe incorrect',
  );
  await marc.close();
});
