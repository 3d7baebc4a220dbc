/**
 * Toasts leave after a few seconds; on a busy machine a check may come after one has gone. The
 * page records the text of every toast it shows, from its first script on, for checks to read.
 */
import type { Page } from '@playwright/test';

declare global {
  interface Window {
    __MOODMAP_TOASTS__?: string[];
  }
}

/** From the next navigation on, `page` keeps the text of each toast it shows. */
export async function recordToasts(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const seen: string[] = [];
    window.__MOODMAP_TOASTS__ = seen;
    const known = new WeakSet<Element>();
    new MutationObserver(() => {
      for (const toast of document.querySelectorAll('[data-testid^="toast-"]')) {
        if (known.has(toast) || !toast.textContent) continue;
        known.add(toast);
        seen.push(toast.textContent);
      }
    }).observe(document, { childList: true, subtree: true, characterData: true });
  });
}

/** The texts of the toasts shown since the page loaded, oldest first. */
export function toastsShown(page: Page): Promise<string[]> {
  return page.evaluate(() => window.__MOODMAP_TOASTS__ ?? []);
}
