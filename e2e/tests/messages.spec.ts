/**
 * Private messages in real time, two browsers. Noa (desktop) publishes a post;
 * Léa (phone) contacts Noa from it and sends the prefilled message → Noa, on the map, sees the
 * 'Nouveau message' toast and the badge → Noa opens the conversation from the toast, replies with
 * text and then an image → Léa, who went back to her list, sees the dot and the badge, opens the
 * conversation and sees both live; the dot and the badge clear once read, and Noa's next message
 * lands in Léa's open chat without a reload. Léa's connection then drops while Noa writes: once it
 * is back, the missed message is in her chat.
 */
import type { APIRequestContext, BrowserContext, Page, Request } from '@playwright/test';
import sharp from 'sharp';
import { PASSWORD, createConfirmedAccount, expectSignedIn, signInThroughModal, uniqueEmail } from '../support/auth.ts';
import { openMapAt, tapPost } from '../support/map.ts';
import { clientAddresses, expect, test } from '../support/test.ts';

const SPOT = { latitude: -21.0096, longitude: 55.2697 };
const POST_TEXT = 'Qui vient faire le sentier littoral de Saint-Paul demain matin ? Départ 7 h au marché.';
const REPLY = 'Avec plaisir ! Je prends le pique-nique, rendez-vous devant le marché.';
const LATER = 'Je viens de partir, à tout de suite 👋';

const clientAddress = clientAddresses('203.0.115');

async function apiLogin(request: APIRequestContext, email: string): Promise<{ token: string; id: string }> {
  const response = await request.post('/api/auth/login', { data: { email, password: PASSWORD } });
  expect(response.status(), await response.text()).toBe(200);
  const body = (await response.json()) as { accessToken: string; user: { id: string } };
  return { token: body.accessToken, id: body.user.id };
}

/** A real JPEG (a sunrise over the sea), made on the spot. */
async function sunrise(): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="900" height="600">
    <defs><linearGradient id="s" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#fb923c"/><stop offset="1" stop-color="#fde68a"/></linearGradient></defs>
    <rect width="900" height="380" fill="url(#s)"/><circle cx="450" cy="380" r="90" fill="#fff7ed"/>
    <rect y="380" width="900" height="220" fill="#0e7490"/>
  </svg>`;
  return sharp(Buffer.from(svg)).jpeg({ quality: 85 }).toBuffer();
}

/**
 * Lets the test cut a page's realtime connection: every WebSocket the app opens is recorded, and
 * while `__blockSockets` is set new ones are aimed at another host, which the CSP's connect-src
 * 'self' refuses (the server accepts an upgrade on any of its own paths, so nothing same-origin
 * would fail): the socket never opens, and the app keeps retrying (with its backoff) until the
 * test lifts the block.
 */
function recordSockets(): void {
  const w = window as unknown as { WebSocket: typeof WebSocket; __sockets: WebSocket[]; __blockSockets: boolean };
  const Native = w.WebSocket;
  w.__sockets = [];
  w.__blockSockets = false;
  w.WebSocket = class extends Native {
    constructor(url: string | URL, protocols?: string | string[]) {
      // Refused by the CSP (Chromium fires an error and no close event), never opened.
      super(w.__blockSockets ? 'ws://127.0.0.1:9/' : url, protocols);
      w.__sockets.push(this);
    }
  };
}

const bubbles = (page: Page) => page.getByTestId('message-bubble');
const entry = (page: Page, conversationId: string) =>
  page.locator(`[data-testid="conversation-item"][data-conversation-id="${conversationId}"]`);

test.describe
  .serial('private messages', () => {
    let noaCtx: BrowserContext;
    let leaCtx: BrowserContext;
    let noaPage: Page;
    let leaPage: Page;
    const noaEmail = uniqueEmail('noa');
    const leaEmail = uniqueEmail('lea');
    let postId = '';
    let noaToken = '';
    let conversationId = '';

    test.beforeAll(async ({ browser, request }) => {
      await createConfirmedAccount(request, { email: noaEmail, firstName: 'Noa', lastName: 'Payet' });
      await createConfirmedAccount(request, { email: leaEmail, firstName: 'Léa', lastName: 'Hoarau' });
      const noa = await apiLogin(request, noaEmail);
      noaToken = noa.token;
      const posted = await request.post('/api/posts', {
        data: { category: 'happy', content: POST_TEXT, ...SPOT },
        headers: { Authorization: `Bearer ${noa.token}` },
      });
      expect(posted.status(), await posted.text()).toBe(201);
      postId = ((await posted.json()) as { post: { id: string } }).post.id;
      // They know each other: Noa contacted Léa before, so Léa's message is no request (message-requests.spec.ts).
      const lea = await apiLogin(request, leaEmail);
      const known = await request.post('/api/conversations', {
        data: { userId: lea.id },
        headers: { Authorization: `Bearer ${noa.token}` },
      });
      expect(known.status(), await known.text()).toBe(201);

      noaCtx = await browser.newContext({
        viewport: { width: 1440, height: 900 },
        locale: 'fr-FR',
        timezoneId: 'Indian/Reunion',
        colorScheme: 'light',
        extraHTTPHeaders: clientAddress(),
      });
      leaCtx = await browser.newContext({
        viewport: { width: 390, height: 844 },
        isMobile: true,
        hasTouch: true,
        locale: 'fr-FR',
        timezoneId: 'Indian/Reunion',
        colorScheme: 'dark',
        extraHTTPHeaders: clientAddress(),
      });
      noaPage = await noaCtx.newPage();
      await leaCtx.addInitScript(recordSockets);
      leaPage = await leaCtx.newPage();
      for (const [page, email] of [
        [noaPage, noaEmail],
        [leaPage, leaEmail],
      ] as const) {
        await openMapAt(page, { ...SPOT, zoom: 13 });
        await signInThroughModal(page, email, PASSWORD);
        await expectSignedIn(page, true);
      }
    });

    // The journeys share one server: Noa's marker must not be on the next journey's map.
    test.afterAll(async ({ request }) => {
      await noaCtx?.close();
      await leaCtx?.close();
      if (postId) await request.delete(`/api/posts/${postId}`, { headers: { Authorization: `Bearer ${noaToken}` } });
    });

    test('Léa contacts Noa from the post; Noa sees the toast and the badge', async () => {
      await tapPost(leaPage, postId);
      const popup = leaPage.getByTestId('post-popup');
      await expect(popup).toContainText('sentier littoral');
      const opened = leaPage.waitForResponse(
        (r) => new URL(r.url()).pathname === '/api/conversations' && r.request().method() === 'POST',
      );
      await popup.getByTestId('post-contact').click();
      conversationId = ((await (await opened).json()) as { conversation: { id: string } }).conversation.id;
      await expect(leaPage).toHaveURL(/\/messages$/);

      // The chat with Noa, empty, with the draft quoting the post.
      const chat = leaPage.getByTestId('messages-chat');
      await expect(chat).toContainText('Commencez votre conversation avec Noa');
      const input = leaPage.getByTestId('message-input');
      await expect(input).toHaveAttribute('placeholder', 'Écrivez votre premier message...');
      await expect(input).toHaveValue(/Qui vient faire le sentier littoral/);
      await leaPage.getByTestId('message-send').click();
      await expect(bubbles(leaPage)).toHaveCount(1);
      await expect(bubbles(leaPage).first()).toHaveAttribute('data-mine', 'true');
      await expect(input).toHaveValue('');
      await expect(input).toHaveAttribute('placeholder', 'Écrivez votre message...');

      // Noa, on the map, is told at once.
      const toast = noaPage.getByTestId('message-toast');
      await expect(toast).toBeVisible();
      // Noa's pointer on it keeps it past its 6 s, until the next journey step clicks it.
      await toast.hover();
      await expect(toast).toContainText('Nouveau message');
      await expect(toast).toContainText('Léa');
      await expect(toast).toContainText("À l'instant");
      await expect(toast).toContainText('Cliquez pour répondre');
      await expect(noaPage.getByTestId('nav-messages').getByTestId('unread-badge')).toHaveText('1');
    });

    test('Noa opens it from the toast and replies with text, then an image', async () => {
      await noaPage.getByTestId('message-toast').click();
      await expect(noaPage).toHaveURL(/\/messages$/);
      await expect(noaPage.getByTestId('messages-screen')).toHaveAttribute('data-conversation-id', conversationId);
      await expect(bubbles(noaPage)).toHaveCount(1);
      await expect(bubbles(noaPage).first()).toHaveAttribute('data-mine', 'false');
      await expect(bubbles(noaPage).first()).toContainText('Qui vient faire le sentier littoral');
      // Opened and read: no badge, no dot.
      await expect(noaPage.getByTestId('nav-messages').getByTestId('unread-badge')).toHaveCount(0);
      await expect(entry(noaPage, conversationId).getByTestId('unread-dot')).toHaveCount(0);

      // Léa goes back to her list meanwhile.
      await leaPage.getByTestId('chat-back').click();
      await expect(entry(leaPage, conversationId)).toBeVisible();

      // A text goes over Noa's signed-in socket; the image, over HTTP.
      const posted: string[] = [];
      const countPost = (r: Request) => {
        if (r.method() === 'POST' && r.url().endsWith(`/conversations/${conversationId}/messages`))
          posted.push(r.url());
      };
      noaPage.on('request', countPost);
      const input = noaPage.getByTestId('message-input');
      await input.fill(REPLY);
      await noaPage.getByTestId('message-send').click();
      await expect(bubbles(noaPage)).toHaveCount(2);
      expect(posted).toHaveLength(0);
      await noaPage
        .getByTestId('message-image-input')
        .setInputFiles({ name: 'lever-de-soleil.jpg', mimeType: 'image/jpeg', buffer: await sunrise() });
      await expect(noaPage.getByTestId('message-image-preview')).toBeVisible();
      await noaPage.getByTestId('message-send').click();
      await expect(bubbles(noaPage)).toHaveCount(3);
      expect(posted).toHaveLength(1);
      noaPage.off('request', countPost);
      await expect(noaPage.getByTestId('message-image-preview')).toHaveCount(0);
      // Léa's toast announces the photo. It hides itself after 6 s, so it is checked and closed here.
      const toast = leaPage.getByTestId('message-toast');
      await expect(toast).toContainText('📷 Photo');
      await toast.getByTestId('message-toast-close').click();
      await expect(toast).toHaveCount(0);
      const image = bubbles(noaPage).last().locator('img');
      await expect(image).toBeVisible();
      expect(await image.evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBeGreaterThan(0);
      await expect(bubbles(noaPage).last().locator('a[target="_blank"]')).toHaveAttribute('href', /\/message-images\//);
    });

    test('Léa sees the dot and the badge, opens the conversation, and both clear; the next reply arrives live', async () => {
      const item = entry(leaPage, conversationId);
      await expect(item.getByTestId('unread-dot')).toBeVisible();
      await expect(item).toContainText('📷 Photo');
      await expect(item).toContainText('Noa');
      await expect(leaPage.getByTestId('nav-messages').getByTestId('unread-badge')).toHaveText('1');
      await expect(leaPage.getByTestId('message-toast')).toHaveCount(0);

      await item.click();
      await expect(bubbles(leaPage)).toHaveCount(3);
      await expect(bubbles(leaPage).nth(1)).toContainText(REPLY);
      await expect(bubbles(leaPage).nth(1)).toHaveAttribute('data-mine', 'false');
      await expect(bubbles(leaPage).nth(2).locator('img')).toBeVisible();
      await expect(leaPage.getByTestId('nav-messages').getByTestId('unread-badge')).toHaveCount(0);

      // Noa writes again: it appears in Léa's open chat without a reload, and stays read.
      await noaPage.getByTestId('message-input').fill(LATER);
      await noaPage.getByTestId('message-send').click();
      await expect(bubbles(leaPage)).toHaveCount(4);
      await expect(bubbles(leaPage).last()).toContainText(LATER);
      await expect(leaPage.getByTestId('message-toast')).toHaveCount(0);
      await expect(leaPage.getByTestId('nav-messages').getByTestId('unread-badge')).toHaveCount(0);

      await leaPage.getByTestId('chat-back').click();
      await expect(entry(leaPage, conversationId)).toContainText(LATER);
      await expect(entry(leaPage, conversationId).getByTestId('unread-dot')).toHaveCount(0);
    });

    test('a message sent while Léa is offline is in her chat once she is back', async () => {
      await entry(leaPage, conversationId).click();
      await expect(bubbles(leaPage)).toHaveCount(4);
      await leaPage.evaluate(() => {
        const w = window as unknown as { __sockets: WebSocket[]; __blockSockets: boolean };
        w.__blockSockets = true;
        w.__sockets.forEach((socket) => socket.close());
      });
      const missed = 'Tu as perdu le réseau ? Je suis devant le marché.';
      await noaPage.getByTestId('message-input').fill(missed);
      await noaPage.getByTestId('message-send').click();
      // Shown in Noa's chat once the server answered it stored (over Noa's socket).
      await expect(bubbles(noaPage).last()).toContainText(missed);
      await expect(noaPage.getByTestId('message-input')).toHaveValue('');
      // The message is on the server, and Léa's app has already tried to reconnect and failed: it is
      // not in her chat while she is offline.
      await expect
        .poll(() =>
          leaPage.evaluate(() =>
            (window as unknown as { __sockets: WebSocket[] }).__sockets.some((socket) =>
              socket.url.startsWith('ws://127.0.0.1:9'),
            ),
          ),
        )
        .toBe(true);
      await expect(bubbles(leaPage)).toHaveCount(4);

      await leaPage.evaluate(() => {
        (window as unknown as { __blockSockets: boolean }).__blockSockets = false;
      });
      await expect(bubbles(leaPage)).toHaveCount(5, { timeout: 20_000 });
      await expect(bubbles(leaPage).last()).toContainText(missed);
    });
  });
