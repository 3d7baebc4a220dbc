/** The shell: the map renders land, themes, modal routes, unknown routes, reset forcing. */
import { expect, test } from '../support/test.ts';
import { colourShares, styleColours, waitForMap } from '../support/map.ts';
import { shot } from '../support/screens.ts';

test.describe('map shell', () => {
  test('the map draws land and sea of the embedded basemap', async ({ page }) => {
    await page.goto('/');
    await waitForMap(page);
    const colours = await styleColours(page);
    const shares = await colourShares(page, colours);
    // The default desktop view (Europe, Africa, Atlantic) shows plenty of both.
    expect(shares.land).toBeGreaterThan(0.1);
    expect(shares.sea).toBeGreaterThan(0.1);
    await expect(page.getByTestId('bottom-nav')).toContainText('Se connecter');
    await expect(page.getByTestId('search-input')).toHaveAttribute('placeholder', 'Rechercher une publication...');
    await shot(page, 'map-desktop-initial');
  });

  test('the theme toggle switches the map style and is remembered', async ({ page }) => {
    await page.emulateMedia({ colorScheme: 'light' });
    await page.goto('/');
    await waitForMap(page);
    const wrapper = page.getByTestId('map-canvas');
    await expect(wrapper).toHaveAttribute('data-theme', 'light');
    const light = await styleColours(page);
    await page.getByTestId('btn-theme').click();
    await expect(wrapper).toHaveAttribute('data-theme', 'dark');
    await expect(page.locator('html')).toHaveClass(/dark/);
    await waitForMap(page);
    const dark = await styleColours(page);
    expect(dark.sea).not.toBe(light.sea);
    expect(dark.land).not.toBe(light.land);
    const shares = await colourShares(page, dark);
    expect(shares.land).toBeGreaterThan(0.1);
    await page.reload();
    await waitForMap(page);
    await expect(page.getByTestId('map-canvas')).toHaveAttribute('data-theme', 'dark');
  });

  test('a modal route opens over the map and closes back to /', async ({ page }) => {
    await page.goto('/');
    await waitForMap(page);
    await page.getByTestId('nav-messages').click();
    await expect(page).toHaveURL(/\/messages$/);
    const panel = page.getByTestId('modal-panel');
    await expect(panel).toContainText('Veuillez vous connecter pour voir vos messages');
    // The map stays underneath.
    await expect(page.getByTestId('map-canvas')).toBeVisible();
    await page.getByTestId('modal-close').click();
    await expect(page).toHaveURL(/\/$/);
    await expect(panel).toHaveCount(0);

    await page.goto('/profile');
    await expect(page.getByTestId('modal-panel')).toContainText('Veuillez vous connecter pour voir votre profil');
    await page.keyboard.press('Escape');
    await expect(page).toHaveURL(/\/$/);
  });

  test('an unknown route lands on /', async ({ page }) => {
    await page.goto('/this/does/not/exist');
    await expect(page).toHaveURL(/127\.0\.0\.1:\d+\/$/);
    await waitForMap(page);
  });

  test('the mood filter keeps at least one mood and remembers the choice', async ({ page }) => {
    await page.goto('/');
    await page.getByRole('button', { name: 'Humeurs' }).click();
    for (const mood of ['happy', 'angry', 'party', 'money']) await page.getByTestId(`mood-option-${mood}`).click();
    const love = page.getByTestId('mood-option-love').locator('input');
    await expect(love).toBeChecked();
    await page.getByTestId('mood-option-love').click();
    await expect(love).toBeChecked();
    await expect(page.getByTestId('mood-option-happy').locator('input')).not.toBeChecked();
    const stored = await page.evaluate(() => localStorage.getItem('moodmap.moodFilter'));
    expect(stored).toContain('love');
    expect(stored).not.toContain('happy');
    await page.reload();
    await page.getByRole('button', { name: 'Humeurs' }).click();
    await expect(page.getByTestId('mood-option-love').locator('input')).toBeChecked();
    await expect(page.getByTestId('mood-option-happy').locator('input')).not.toBeChecked();
  });

  test('a recovery link with tokens in the hash is forced to /reset-password, tokens moved to the query', async ({
    page,
  }) => {
    await page.goto('/some/where?keep=1#access_token=aaa&refresh_token=bbb&type=recovery');
    await expect(page).toHaveURL(/\/reset-password\?/);
    const url = new URL(page.url());
    expect(url.searchParams.get('keep')).toBe('1');
    expect(url.searchParams.get('access_token')).toBe('aaa');
    expect(url.searchParams.get('refresh_token')).toBe('bbb');
    expect(url.searchParams.get('type')).toBe('recovery');
    expect(url.hash).not.toContain('access_token');
    await expect(page.getByRole('heading', { name: 'Nouveau mot de passe' })).toBeVisible();
    const submit = page.getByRole('button', { name: 'Changer le mot de passe' });
    await expect(submit).toBeDisabled();
  });

  test('a reset link without tokens explains it is invalid', async ({ page }) => {
    await page.goto('/reset-password');
    await expect(
      page.getByText('Lien de réinitialisation invalide ou expiré. Veuillez demander un nouveau lien.'),
    ).toBeVisible();
  });
});

// The screens people look at (E2E_SCREENSHOTS=1 saves them: support/screens.ts).
test.describe('each theme and size', () => {
  for (const [name, viewport] of [
    ['desktop', { width: 1440, height: 900 }],
    ['mobile', { width: 390, height: 844 }],
  ] as const) {
    for (const scheme of ['light', 'dark'] as const) {
      test(`${name} ${scheme}`, async ({ page }) => {
        await page.setViewportSize(viewport);
        await page.emulateMedia({ colorScheme: scheme });
        await page.goto('/');
        await waitForMap(page);
        await expect(page.getByTestId('map-canvas')).toHaveAttribute('data-theme', scheme);
        await shot(page, `map-${name}-${scheme}`);
        await page.goto('/create');
        await expect(page.getByTestId('modal-panel')).toBeVisible();
        await shot(page, `create-signed-out-${name}-${scheme}`);
      });
    }
  }
});
