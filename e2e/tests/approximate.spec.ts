/**
 * 'Position approximative'. A person turns the switch on in the create
 * page and publishes from a point picked inland; the card says 'Position approximative', the
 * post stands at its cell's point and not at the picked one, and the switch is still on at the
 * next visit to the create page (this device remembers it).
 */
import { createConfirmedAccount, signInFromHome, uniqueEmail } from '../support/auth.ts';
import { fillPostForm, publishOnLand } from '../support/create.ts';
import { expect, test } from '../support/test.ts';

/** The create page's picker map, read-only (web/src/features/posts/create/LocationPicker.tsx). */
interface PickerHook {
  __MOODMAP_PICKER_MAP__?: {
    loaded(): boolean;
    jumpTo(camera: { center: [number, number]; zoom: number }): void;
    project(lngLat: [number, number]): { x: number; y: number };
  };
}
/** Between Paris and Versailles: no sea for 150 km. */
const INLAND = { latitude: 48.8234567, longitude: 2.2345678 };
const TEXT = 'Bonne soirée depuis chez moi, sans dire où exactement';

test('an approximate post shows "Position approximative" and hides the picked point', async ({ page, request }) => {
  const email = uniqueEmail('approx');
  await createConfirmedAccount(request, { email, firstName: 'Inès', lastName: 'Payet' });
  await page.setViewportSize({ width: 1280, height: 860 });
  await signInFromHome(page, email);
  await page.getByTestId('nav-create').click();

  const toggle = page.getByTestId('approximate-toggle');
  const switchInput = toggle.getByRole('switch', { name: 'Position approximative' });
  await expect(switchInput).not.toBeChecked();
  await fillPostForm(page, 'love', TEXT);
  const picker = page.getByTestId('location-picker');
  // The picker moved over the Paris region (as a person pans), then a tap well inland.
  const before = await picker.getAttribute('data-latitude');
  await page.waitForFunction(() => Boolean((window as unknown as PickerHook).__MOODMAP_PICKER_MAP__?.loaded()));
  const at = await page.evaluate(
    ([lat, lon]) => {
      const map = (window as unknown as PickerHook).__MOODMAP_PICKER_MAP__!;
      map.jumpTo({ center: [lon, lat], zoom: 9 });
      return map.project([lon, lat]);
    },
    [INLAND.latitude, INLAND.longitude],
  );
  await picker
    .locator('canvas')
    .first()
    .click({ position: { x: at.x, y: at.y } });
  await expect(picker).not.toHaveAttribute('data-latitude', before ?? '');
  const picked = {
    latitude: Number(await picker.getAttribute('data-latitude')),
    longitude: Number(await picker.getAttribute('data-longitude')),
  };
  await toggle.click();
  await expect(switchInput).toBeChecked();
  await toggle.scrollIntoViewIfNeeded();

  const created = page.waitForResponse(
    (r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/api/posts',
  );
  const postId = await publishOnLand(page);
  const sent = (await created).request().postDataJSON() as Record<string, unknown>;
  expect(sent).toMatchObject({ approximate: true, ...picked });

  const popup = page.getByTestId('post-popup');
  await expect(popup).toContainText(TEXT);
  await expect(popup.getByTestId('post-approximate')).toHaveText('Position approximative');

  // What anyone reads of the post: its cell's point, never the picked one.
  const card = (await (await request.get(`/api/posts/${postId}`)).json()) as {
    post: { latitude: number; longitude: number; approximate: boolean };
  };
  expect(card.post.approximate).toBe(true);
  expect({ latitude: card.post.latitude, longitude: card.post.longitude }).not.toEqual(picked);

  // Once this post is deleted, the next one from this device starts with the switch on.
  await page.getByTestId('nav-create').click();
  const block = page.getByTestId('create-active-block');
  await block.getByTestId('post-delete').click();
  await block.getByTestId('post-delete-confirm').click();
  await expect(page.getByTestId('create-form')).toBeVisible();
  await expect(page.getByTestId('approximate-toggle').getByRole('switch')).toBeChecked();
});
