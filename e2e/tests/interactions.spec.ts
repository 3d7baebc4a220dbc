/**
 * Interactions on a post. A publishes a post at La Réunion and keeps its
 * popup open; B, signed in elsewhere, likes it (A's count follows live), comments, edits the
 * comment (the edited mark shows, for A too), deletes it; reports it ('Autre motif' waits for
 * details); finds it by searching a word of it and lands on it; switching off its mood hides the
 * marker and the search follows; 'Contacter' opens the conversation in /messages.
 */
import type { APIRequestContext, Page } from '@playwright/test';
import {
  PASSWORD,
  createConfirmedAccount,
  expectSignedIn,
  signInFromHome,
  signInThroughModal,
  uniqueEmail,
} from '../support/auth.ts';
import { camera, expectPostMarker, jumpTo, openMapAt, tapPost } from '../support/map.ts';
import { clientAddresses, expect, test } from '../support/test.ts';

const REUNION = { latitude: -21.0667, longitude: 55.2167 };
const POST_TEXT = 'Pique-nique géant au Barachois ce midi, venez nombreux avec vos paniers et vos samoussas !';
const SEARCH_WORD = 'paniers';
const COMMENT = "J'arrive avec des bouchons et un rougail !";
const COMMENT_EDITED = "J'arrive avec des bouchons, un rougail et ma guitare !";
const REPORT_SUCCESS = 'Publication signalée avec succès. Merci de nous aider à maintenir une communauté saine.';

/** Each browser is its own client address (the server trusts X-Forwarded-For, support/test.ts). */
const clientAddress = clientAddresses('203.0.114');

const zoomOf = async (page: Page) => (await camera(page)).zoom;

async function deleteAsAuthor(request: APIRequestContext, email: string, postId: string): Promise<void> {
  const login = await request.post('/api/auth/login', {
    data: { email, password: PASSWORD },
    headers: clientAddress(),
  });
  if (!login.ok()) return;
  const { accessToken } = (await login.json()) as { accessToken: string };
  await request.delete(`/api/posts/${postId}`, {
    headers: { ...clientAddress(), authorization: `Bearer ${accessToken}` },
  });
}

test.describe
  .serial('interactions on a post', () => {
    let pageA: Page;
    let pageB: Page;
    let postId = '';
    const emailA = uniqueEmail('author');
    const emailB = uniqueEmail('reader');

    test.beforeAll(async ({ browser, request }) => {
      await createConfirmedAccount(request, { email: emailA, firstName: 'Léa', lastName: 'Hoarau' });
      await createConfirmedAccount(request, { email: emailB, firstName: 'Marc', lastName: 'Payet' });
      const options = {
        viewport: { width: 1440, height: 900 },
        locale: 'fr-FR',
        timezoneId: 'Indian/Reunion',
        colorScheme: 'light' as const,
      };
      // Each page has a browser context of its own, closed with it.
      pageA = await browser.newPage({ ...options, extraHTTPHeaders: clientAddress() });
      pageB = await browser.newPage({ ...options, extraHTTPHeaders: clientAddress() });
    });

    test.afterAll(async ({ request }) => {
      // The post leaves the shared server, so other journeys start from an empty La Réunion.
      if (postId) await deleteAsAuthor(request, emailA, postId).catch(() => undefined);
      await pageA?.close();
      await pageB?.close();
    });

    test('A publishes; B likes it and A sees the count change live', async () => {
      await signInFromHome(pageA, emailA);
      await pageA.getByTestId('nav-create').click();
      await expect(pageA.getByTestId('create-form')).toBeVisible();
      await pageA.getByTestId('create-mood-happy').click();
      await pageA.getByTestId('create-content').fill(POST_TEXT);
      await expect(pageA.getByTestId('land-status')).toHaveAttribute('data-state', 'land', { timeout: 45_000 });
      await pageA.getByTestId('create-submit').click();
      const popupA = pageA.getByTestId('post-popup');
      await expect(popupA).toContainText(POST_TEXT);
      postId = (await popupA.getAttribute('data-post-id')) ?? '';
      expect(postId).not.toBe('');
      // The author sees the likes but no flag on their own post.
      await expect(popupA.getByTestId('post-like-count')).toHaveText('0');
      await expect(popupA.getByTestId('post-report')).toHaveCount(0);

      await openMapAt(pageB, { ...REUNION, zoom: 14 });
      await signInThroughModal(pageB, emailB, PASSWORD);
      await expectSignedIn(pageB, true);
      await tapPost(pageB, postId);
      const popupB = pageB.getByTestId('post-popup');
      await expect(popupB).toContainText(POST_TEXT);
      const like = popupB.getByTestId('post-like');
      await expect(like).toHaveAttribute('aria-pressed', 'false');
      const refetched = pageB.waitForResponse(
        (r) => r.request().method() === 'GET' && new URL(r.url()).pathname === `/api/posts/${postId}`,
      );
      await like.click();
      await expect(like).toHaveAttribute('aria-pressed', 'true');
      await expect(popupB.getByTestId('post-like-count')).toHaveText('1');
      // A's open popup follows without a reload.
      await expect(popupA.getByTestId('post-like-count')).toHaveText('1');
      await expect(popupA.getByTestId('post-like')).toHaveAttribute('aria-pressed', 'false');
      // The refetch one second later agrees.
      expect((await refetched).ok()).toBe(true);
      await expect(popupB.getByTestId('post-like-count')).toHaveText('1');
      await expect(like).toHaveAttribute('aria-pressed', 'true');
    });

    test('B comments, edits (the mark shows, for A too) and deletes the comment', async ({ browser }) => {
      const popupA = pageA.getByTestId('post-popup');
      await popupA.getByTestId('post-comment').click();
      await expect(popupA.getByTestId('comments-empty')).toHaveText('Aucun commentaire pour le moment.');

      const popupB = pageB.getByTestId('post-popup');
      await popupB.getByTestId('post-comment').click();
      const comments = popupB.getByTestId('post-comments');
      await expect(comments.getByTestId('comments-empty')).toBeVisible();
      const input = comments.getByTestId('comment-form-input');
      await input.fill(COMMENT);
      await expect(comments.getByTestId('comment-form-counter')).toHaveText(`${COMMENT.length}/500`);
      await input.press('Enter');
      const mine = comments.getByTestId('comment');
      await expect(mine).toHaveCount(1);
      await expect(mine.getByTestId('comment-text')).toHaveText(COMMENT);
      await expect(mine.getByTestId('comment-author')).toHaveText('Marc');
      await expect(mine).not.toHaveAttribute('data-comment-id', /^temp-/);
      await expect(popupB.getByTestId('comments-count')).toHaveText('1 commentaire');
      // A sees it arrive, without edit or delete on someone else's comment.
      const seenByA = popupA.getByTestId('comment');
      await expect(seenByA.getByTestId('comment-text')).toHaveText(COMMENT);
      await expect(popupA.getByTestId('post-comment-count')).toHaveText('1');
      await expect(seenByA.getByTestId('comment-edit')).toHaveCount(0);
      await expect(seenByA.getByTestId('comment-delete')).toHaveCount(0);

      await mine.getByTestId('comment-edit').click();
      const edit = mine.getByTestId('comment-edit-form-input');
      await expect(edit).toHaveValue(COMMENT);
      await edit.fill(COMMENT_EDITED);
      await mine.getByTestId('comment-edit-form-submit').click();
      await expect(mine.getByTestId('comment-text')).toHaveText(COMMENT_EDITED);
      await expect(mine.getByTestId('comment-edited')).toHaveText('(modifié)');
      await expect(seenByA.getByTestId('comment-text')).toHaveText(COMMENT_EDITED);
      await expect(seenByA.getByTestId('comment-edited')).toHaveText('(modifié)');
      // Still edited after a fresh read from the server.
      await pageB.keyboard.press('Escape');
      await expect(popupB).toHaveCount(0);
      await tapPost(pageB, postId);
      await popupB.getByTestId('post-comment').click();
      await expect(popupB.getByTestId('comment').getByTestId('comment-edited')).toBeVisible();

      // A visitor on a phone finds the post by searching, reads the comment, is asked to sign in to comment.
      const phone = await browser.newContext({
        viewport: { width: 390, height: 844 },
        isMobile: true,
        hasTouch: true,
        locale: 'fr-FR',
        timezoneId: 'Indian/Reunion',
        colorScheme: 'light',
        extraHTTPHeaders: clientAddress(),
      });
      const page = await phone.newPage();
      await openMapAt(page, { latitude: 46.5, longitude: 2.5, zoom: 4 });
      await page.getByTestId('search-input').fill(SEARCH_WORD);
      const results = page.getByTestId('search-result');
      await expect(results.first()).toBeVisible();
      await expect(page.locator(`[data-testid="search-result"][data-post-id="${postId}"]`)).toContainText('Léa');
      await page.locator(`[data-testid="search-result"][data-post-id="${postId}"]`).click();
      const popup = page.getByTestId('post-popup');
      await expect(popup).toContainText(POST_TEXT);
      await popup.getByTestId('post-comment').click();
      await expect(popup.getByTestId('comment-text')).toHaveText(COMMENT_EDITED);
      await expect(popup.getByTestId('comments-signed-out')).toContainText('Veuillez vous connecter pour commenter');
      await expect(popup.getByTestId('post-report')).toHaveCount(0);
      await page.emulateMedia({ colorScheme: 'dark' });
      await expect(page.locator('html')).toHaveClass(/dark/);
      await phone.close();

      // B deletes it after a confirmation; it leaves A's popup too.
      const again = popupB.getByTestId('comment');
      await again.getByTestId('comment-delete').click();
      await expect(again).toContainText('Supprimer ce commentaire ?');
      await again.getByTestId('comment-delete-confirm').click();
      await expect(popupB.getByTestId('comment')).toHaveCount(0);
      await expect(popupB.getByTestId('comments-count')).toHaveText('0 commentaire');
      await expect(popupA.getByTestId('comment')).toHaveCount(0);
      await expect(popupA.getByTestId('post-comment-count')).toHaveCount(0);
    });

    test("B reports it: 'Autre motif' waits for details, then the thanks", async () => {
      const popupB = pageB.getByTestId('post-popup');
      await popupB.getByTestId('post-report').click();
      const dialog = pageB.getByTestId('report-dialog');
      await expect(dialog).toContainText('Signaler la publication');
      const submit = dialog.getByTestId('report-submit');
      await expect(submit).toBeDisabled();
      await dialog.getByRole('radio', { name: 'Autre motif' }).check();
      await expect(dialog.getByTestId('report-details-required')).toBeVisible();
      await expect(submit).toBeDisabled();
      const details = 'Ce rassemblement bloque l’accès au parking du Barachois.';
      await dialog.getByTestId('report-details').fill(details);
      await expect(dialog.getByTestId('report-counter')).toHaveText(`${details.length}/500`);
      await expect(submit).toBeEnabled();
      await submit.click();
      await expect(pageB.getByText(REPORT_SUCCESS)).toBeVisible();
      await expect(dialog).toHaveCount(0);
    });

    test('B searches a word of the post and lands on it; the mood filter hides it from the map and from the search', async () => {
      await pageB.keyboard.press('Escape');
      await expect(pageB.getByTestId('post-popup')).toHaveCount(0);
      // Far away, zoomed out: the post is not on screen.
      await jumpTo(pageB, { latitude: 48.85, longitude: 2.35, zoom: 5 });
      await expectPostMarker(pageB, postId, { drawn: false });

      const searches: string[] = [];
      pageB.on('request', (r) => {
        if (new URL(r.url()).pathname === '/api/search') searches.push(r.url());
      });
      const box = pageB.getByTestId('search-input');
      // Typed as a person types, in capitals: the search ignores case.
      await box.pressSequentially(SEARCH_WORD.toUpperCase(), { delay: 90 });
      const result = pageB.locator(`[data-testid="search-result"][data-post-id="${postId}"]`);
      await expect(result).toBeVisible();
      await expect(result).toContainText('Léa');
      await expect(result).toContainText('Pique-nique géant au Barachois ce midi,...');
      // The answer shown is the whole word's, asked among the moods on (how long the box waits
      // for the typing to stop is a unit test's: a busy machine can pause between two keys).
      const lastSearch = new URL(searches[searches.length - 1]!).searchParams;
      expect(lastSearch.get('q')).toBe(SEARCH_WORD.toUpperCase());
      expect(lastSearch.get('moods')).toBe('happy,angry,party,money,love');
      // Its answer is in (an earlier one, for a pause mid-word, may have been shown first).
      await expect(pageB.locator('[role="listbox"][aria-busy="true"]')).toHaveCount(0);
      await box.press('ArrowDown');
      await expect(result).toHaveAttribute('aria-selected', 'true');
      await box.press('Enter');
      const popupB = pageB.getByTestId('post-popup');
      await expect(popupB).toContainText(POST_TEXT);
      await expect(popupB).toHaveAttribute('data-post-id', postId);
      await expect.poll(() => zoomOf(pageB)).toBeGreaterThan(15.9);
      await expectPostMarker(pageB, postId);
      await expect(pageB.getByTestId('search-results')).toHaveCount(0);

      // Happy off: A's marker goes, and the search only looks among the moods left.
      await pageB.getByRole('button', { name: 'Humeurs' }).click();
      await pageB.getByTestId('mood-option-happy').click();
      await pageB.keyboard.press('Escape');
      await expectPostMarker(pageB, postId, { drawn: false });
      await box.fill('');
      await box.fill(SEARCH_WORD);
      await expect(pageB.getByTestId('search-empty')).toHaveText(`Aucune publication trouvée pour "${SEARCH_WORD}"`);
      expect(new URL(searches[searches.length - 1]!).searchParams.get('moods')).toBe('angry,party,money,love');
      await box.press('Escape');
      await box.press('Escape');
      await expect(box).toHaveValue('');
      await pageB.getByRole('button', { name: 'Humeurs' }).click();
      await pageB.getByTestId('mood-option-happy').click();
      await pageB.keyboard.press('Escape');
      await expectPostMarker(pageB, postId);
    });

    test("'Contacter' opens the conversation with A in Messages", async () => {
      const popupB = pageB.getByTestId('post-popup');
      if ((await popupB.count()) === 0) await tapPost(pageB, postId);
      const opened = pageB.waitForResponse(
        (r) => new URL(r.url()).pathname === '/api/conversations' && r.request().method() === 'POST',
      );
      await popupB.getByTestId('post-contact').click();
      const response = await opened;
      expect(response.status()).toBe(201);
      const { conversation } = (await response.json()) as { conversation: { id: string } };
      // /messages?conversation={id} selected it, then the address became plain /messages.
      await expect(pageB).toHaveURL(/127\.0\.0\.1:\d+\/messages$/);
      await expect(pageB.getByTestId('messages-screen')).toHaveAttribute('data-conversation-id', conversation.id);
      await expect(pageB.getByTestId('modal-panel')).toContainText('Messages');

      // Contacting again reuses the same conversation.
      await pageB.getByTestId('modal-close').click();
      await tapPost(pageB, postId);
      const again = pageB.waitForResponse(
        (r) => new URL(r.url()).pathname === '/api/conversations' && r.request().method() === 'POST',
      );
      await pageB.getByTestId('post-popup').getByTestId('post-contact').click();
      const second = await again;
      expect(second.status()).toBe(200);
      expect(((await second.json()) as { conversation: { id: string } }).conversation.id).toBe(conversation.id);
      await expect(pageB).toHaveURL(/\/messages$/);
    });
  });
