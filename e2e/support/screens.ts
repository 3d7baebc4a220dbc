/**
 * Screenshots for people to look at, never compared: opt-in with E2E_SCREENSHOTS=1 (into
 * E2E_SCREENSHOTS_DIR, e2e/screenshots/ by default), so they cost nothing in a normal run.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import { settle } from './map.ts';

const enabled = process.env.E2E_SCREENSHOTS === '1';
const dir =
  process.env.E2E_SCREENSHOTS_DIR ?? path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'screenshots');

/** Saves the page once its transitions and the map's camera are still, when screenshots are asked for. */
export async function shot(page: Page, name: string): Promise<void> {
  if (!enabled) return;
  mkdirSync(dir, { recursive: true });
  await settle(page);
  await page.screenshot({ path: path.join(dir, `${name}.png`) });
}

/** The same screen in the light then the dark theme (`<name>-light`, `<name>-dark`); the page is left light. */
export async function shotBothThemes(page: Page, name: string): Promise<void> {
  if (!enabled) return;
  for (const theme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: theme });
    await shot(page, `${name}-${theme}`);
  }
  await page.emulateMedia({ colorScheme: 'light' });
}
