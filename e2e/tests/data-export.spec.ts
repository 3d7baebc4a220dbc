/**
 * 'Télécharger mes données': Léa asks for her data from her profile, sees the archive being
 * prepared, then ready (and announced by e-mail), downloads it, and the ZIP holds her profile
 * and the README that explains each file.
 */
import { readFile } from 'node:fs/promises';
import { strFromU8, unzipSync } from 'fflate';
import { createConfirmedAccount, signInFromHome, uniqueEmail, waitForMail } from '../support/auth.ts';
import { shotBothThemes } from '../support/screens.ts';
import { expect, test } from '../support/test.ts';

test('Léa downloads the archive of her data from her profile', async ({ page, request }) => {
  const email = uniqueEmail('lea-donnees');
  await createConfirmedAccount(request, { email, firstName: 'Léa' });
  await signInFromHome(page, email);

  await page.goto('/profile');
  const section = page.getByTestId('data-export');
  await expect(section).toContainText('Mes données');
  await section.getByRole('button', { name: 'Télécharger mes données' }).click();
  await expect(
    page.getByText("Demande enregistrée : vous serez prévenu par e-mail quand l'archive sera prête."),
  ).toBeVisible();

  // Prepared in the background: the section follows it until it is ready.
  await expect(section.getByTestId('data-export-status')).toContainText('Votre archive est prête', { timeout: 30_000 });
  await expect(section.getByRole('button', { name: 'Télécharger mes données' })).toHaveCount(0);
  const mail = await waitForMail(request, email, /vos données sont prêtes/);
  expect(mail.text).toContain('/profile');
  await shotBothThemes(page, 'data-export-ready');

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    section.getByRole('button', { name: 'Télécharger', exact: true }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^moodmap-donnees-\d{4}-\d{2}-\d{2}\.zip$/);
  const files = unzipSync(new Uint8Array(await readFile(await download.path())));
  expect(strFromU8(files['README.txt'])).toContain('profil.json');
  const profile = JSON.parse(strFromU8(files['profil.json'])) as { account: { email: string } };
  expect(profile.account.email).toBe(email);
  expect(Object.keys(files)).toEqual(
    expect.arrayContaining(['publications.json', 'messages.json', 'consentements.json']),
  );
});
