import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';

const dir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'screenshots');
mkdirSync(dir, { recursive: true });

/** Saves a screenshot of each screen under e2e/screenshots/ for people to look at. */
export async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: path.join(dir, `${name}.png`) });
}
