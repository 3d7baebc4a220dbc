/** The create form's steps that journeys share: filling it in, then publishing on land. */
import { expect, type Page } from '@playwright/test';

/** Picks a mood, types the text and waits for the location picker's map, which the land check needs. */
export async function fillPostForm(page: Page, mood: string, text: string): Promise<void> {
  await page.getByTestId(`create-mood-${mood}`).click();
  await page.getByTestId('create-content').fill(text);
  await expect(page.getByTestId('location-picker')).toHaveAttribute('data-map-loaded', 'true', { timeout: 45_000 });
}

/**
 * Publishes the filled form once its point is on land and returns the new post's id, read from
 * the popup the map opens on it. `timeout` is how long the popup may take (the default otherwise).
 */
export async function publishOnLand(page: Page, timeout?: number): Promise<string> {
  await expect(page.getByTestId('land-status')).toHaveAttribute('data-state', 'land');
  await page.getByTestId('create-submit').click();
  const popup = page.getByTestId('post-popup');
  await expect(popup).toBeVisible({ timeout });
  const postId = (await popup.getAttribute('data-post-id')) ?? '';
  expect(postId).not.toBe('');
  return postId;
}
