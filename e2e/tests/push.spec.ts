/**
 * Web Push in the browser. Léa sends her first message; the app offers to
 * notify her; she accepts and the subscription flow runs through the page's real code up to the
 * browser's PushManager; the device shows in her profile. Noa answers while Léa is elsewhere:
 * the server encrypts a push for Léa's subscription and POSTs it to the push service; the
 * service worker receives it and shows the notification; the notification's click handler
 * takes Léa's tab to the conversation. A second person who answers 'Plus tard' is not asked again.
 *
 * What is stood in for, and why:
 * - No push service is reachable here (Chromium's goes to the vendor's servers), so
 *   `PushManager.prototype.subscribe` is wrapped to answer a subscription whose endpoint is a
 *   local HTTP server of this test, and whose keys are a real P-256 pair and auth secret made
 *   by the test. The app's own call (with the server's VAPID key) is recorded and checked.
 * - That local server receives the server's real encrypted push; the test decrypts it with the
 *   subscription's private key (RFC 8291), as the browser's push stack would, and hands the
 *   plaintext to the service worker through the DevTools protocol
 *   (`ServiceWorker.deliverPushMessage`), which fires a real `push` event in the worker.
 * - Chromium cannot click a notification from the DevTools protocol, and a synthetic
 *   `notificationclick` is untrusted (its `waitUntil` throws), so the test runs, inside the
 *   worker, the very function the click listener runs (`openFromNotification`) with the
 *   address the shown notification carries, and checks where the tab lands.
 */
import { createDecipheriv, createECDH, hkdfSync, randomBytes } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { APIRequestContext, BrowserContext, Page, Worker } from '@playwright/test';
import { PASSWORD, createConfirmedAccount, signInFromHome, uniqueEmail } from '../support/auth.ts';
import { clientAddresses, expect, test } from '../support/test.ts';

const clientAddress = clientAddresses('203.0.120');

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** The stand-in push service, on the port the worker's server accepts: records every POST and answers 201 Created. */
async function startPushService(
  port: number,
): Promise<{ base: string; received: Received[]; close: () => Promise<void> }> {
  const received: Received[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks) });
      res.statusCode = 201;
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return { base: `http://127.0.0.1:${port}`, received, close: () => new Promise((r) => server.close(() => r())) };
}

/** RFC 8291 + RFC 8188: one aes128gcm record opened with the subscription's private key. */
function decrypt(body: Buffer, ecdh: ReturnType<typeof createECDH>, authSecret: Buffer): string {
  const salt = body.subarray(0, 16);
  const idLength = body.readUInt8(20);
  const senderPublic = body.subarray(21, 21 + idLength);
  const record = body.subarray(21 + idLength);
  const info = Buffer.concat([Buffer.from('WebPush: info\0'), ecdh.getPublicKey(), senderPublic]);
  const ikm = Buffer.from(hkdfSync('sha256', ecdh.computeSecret(senderPublic), authSecret, info, 32));
  const key = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: aes128gcm\0'), 16));
  const nonce = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: nonce\0'), 12));
  const decipher = createDecipheriv('aes-128-gcm', key, nonce);
  decipher.setAuthTag(record.subarray(record.length - 16));
  const padded = Buffer.concat([decipher.update(record.subarray(0, record.length - 16)), decipher.final()]);
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end -= 1;
  return padded.subarray(0, end).toString('utf8');
}

/**
 * Runs in the page before the app: `subscribe` answers the test's subscription (after checking
 * the app asked for a user-visible one bound to a key) and records the options it was given.
 */
function standInPushManager(sub: { endpoint: string; p256dh: string; auth: string }): void {
  const w = window as unknown as {
    __pushSubscribeCalls: Array<{ userVisibleOnly: boolean; applicationServerKey: number[] }>;
  };
  w.__pushSubscribeCalls = [];
  let current: PushSubscription | null = null;
  const bytes = (b64: string) =>
    Uint8Array.from(
      atob(
        b64
          .replace(/-/g, '+')
          .replace(/_/g, '/')
          .padEnd(Math.ceil(b64.length / 4) * 4, '='),
      ),
      (c) => c.charCodeAt(0),
    );
  PushManager.prototype.subscribe = async function subscribe(options?: PushSubscriptionOptionsInit) {
    const key = options?.applicationServerKey;
    if (!options?.userVisibleOnly || !key)
      throw new DOMException('userVisibleOnly and applicationServerKey are required', 'NotAllowedError');
    const keyBytes =
      typeof key === 'string' ? bytes(key) : new Uint8Array(key instanceof ArrayBuffer ? key : key.buffer);
    w.__pushSubscribeCalls.push({
      userVisibleOnly: options.userVisibleOnly,
      applicationServerKey: Array.from(keyBytes),
    });
    const json = { endpoint: sub.endpoint, expirationTime: null, keys: { p256dh: sub.p256dh, auth: sub.auth } };
    current = {
      endpoint: sub.endpoint,
      expirationTime: null,
      options: { userVisibleOnly: true, applicationServerKey: keyBytes.buffer },
      getKey: (name: PushEncryptionKeyName) => bytes(name === 'p256dh' ? sub.p256dh : sub.auth).buffer,
      toJSON: () => json,
      unsubscribe: async () => {
        current = null;
        return true;
      },
    } as unknown as PushSubscription;
    return current;
  };
  PushManager.prototype.getSubscription = async function getSubscription() {
    return current;
  };
}

/** What the tests read in the worker's global scope (web/public/sw.js; DOM typings know only windows). */
interface ServiceWorkerGlobal {
  registration: ServiceWorkerRegistration;
  openFromNotification: (url: string) => Promise<unknown>;
}

async function apiLogin(
  request: APIRequestContext,
  email: string,
): Promise<{ token: string; id: string; nickname: string }> {
  const response = await request.post('/api/auth/login', { data: { email, password: PASSWORD } });
  expect(response.status(), await response.text()).toBe(200);
  const body = (await response.json()) as { accessToken: string; user: { id: string; profile: { username: string } } };
  return { token: body.accessToken, id: body.user.id, nickname: body.user.profile.username };
}

/** The app's service worker, once it controls the page (it claims clients when it activates). */
async function serviceWorkerOf(context: BrowserContext, page: Page): Promise<Worker> {
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 30_000 });
  return context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker'));
}

test.describe
  .serial('web push', () => {
    let service: Awaited<ReturnType<typeof startPushService>>;
    let context: BrowserContext;
    let page: Page;
    const leaEmail = uniqueEmail('lea-push');
    const noaEmail = uniqueEmail('noa-push');
    let noa: { token: string; id: string; nickname: string };
    let conversationId = '';
    const ecdh = createECDH('prime256v1');
    ecdh.generateKeys();
    const authSecret = randomBytes(16);
    const pushPath = `/push/${randomBytes(8).toString('hex')}`;

    test.beforeAll(async ({ browser, request, appServer }) => {
      service = await startPushService(appServer.pushPort);
      await createConfirmedAccount(request, { email: leaEmail, firstName: 'Léa', lastName: 'Hoarau' });
      await createConfirmedAccount(request, { email: noaEmail, firstName: 'Noa', lastName: 'Payet' });
      noa = await apiLogin(request, noaEmail);
      const lea = await apiLogin(request, leaEmail);
      const opened = await request.post('/api/conversations', {
        data: { userId: lea.id },
        headers: { Authorization: `Bearer ${noa.token}` },
      });
      expect(opened.status(), await opened.text()).toBe(201);
      conversationId = ((await opened.json()) as { conversation: { id: string } }).conversation.id;
      // Léa knows Noa (she contacted them too): Noa's messages are no request, which pushes nothing.
      const known = await request.post('/api/conversations', {
        data: { userId: noa.id },
        headers: { Authorization: `Bearer ${lea.token}` },
      });
      expect(known.status(), await known.text()).toBe(200);

      context = await browser.newContext({
        viewport: { width: 1280, height: 860 },
        locale: 'fr-FR',
        timezoneId: 'Indian/Reunion',
        extraHTTPHeaders: clientAddress(),
      });
      await context.addInitScript(standInPushManager, {
        endpoint: `${service.base}${pushPath}`,
        p256dh: ecdh.getPublicKey().toString('base64url'),
        auth: authSecret.toString('base64url'),
      });
      page = await context.newPage();
      await signInFromHome(page, leaEmail);
    });

    test.afterAll(async () => {
      await context?.close();
      await service?.close();
    });

    test('after her first message Léa is offered notifications, and the device is stored', async ({ request }) => {
      await page.goto(`/messages?conversation=${conversationId}`);
      await expect(page.getByTestId('chat-view')).toBeVisible();
      // Never on load: only once she has sent something.
      await expect(page.getByTestId('push-offer')).toHaveCount(0);
      await page.getByTestId('message-input').fill('Salut Noa, tu viens au marché samedi ?');
      await page.getByTestId('message-send').click();
      const offer = page.getByTestId('push-offer');
      await expect(offer).toBeVisible();
      await expect(offer).toContainText('Activer les notifications');
      await expect(offer).toContainText('Plus tard');

      // Léa allows notifications when the browser asks.
      await context.grantPermissions(['notifications']);
      const saved = page.waitForResponse(
        (r) => new URL(r.url()).pathname === '/api/push/subscriptions' && r.request().method() === 'POST',
      );
      await offer.getByTestId('push-offer-accept').click();
      expect((await saved).status()).toBe(201);
      await expect(page.getByText('Notifications activées sur cet appareil')).toBeVisible();
      await expect(offer).toHaveCount(0);

      // The app asked PushManager for a user-visible subscription bound to the server's VAPID key.
      const calls = await page.evaluate(
        () =>
          (
            window as unknown as {
              __pushSubscribeCalls: Array<{ userVisibleOnly: boolean; applicationServerKey: number[] }>;
            }
          ).__pushSubscribeCalls,
      );
      const { token } = await apiLogin(request, leaEmail);
      const key = (
        (await (await request.get('/api/push/key', { headers: { Authorization: `Bearer ${token}` } })).json()) as {
          publicKey: string;
        }
      ).publicKey;
      expect(calls).toEqual([
        { userVisibleOnly: true, applicationServerKey: Array.from(Buffer.from(key, 'base64url')) },
      ]);

      // The profile lists the device, marked as this one, with its preview switch on.
      await page.goto('/profile');
      const device = page.getByTestId('push-device');
      await expect(device).toHaveCount(1);
      await expect(device).toContainText('Chrome sur Linux');
      await expect(device).toContainText('Cet appareil');
      await expect(device.getByTestId('push-device-preview')).toBeChecked();
      await page.getByTestId('push-devices').scrollIntoViewIfNeeded();
    });

    test("Noa's answer arrives as a push; the notification shows and its click opens the conversation", async ({
      request,
    }) => {
      const worker = await serviceWorkerOf(context, page);
      // The registration's id, as the DevTools protocol names it.
      const cdp = await context.newCDPSession(page);
      // Each registration's latest state (a later update may delete one listed earlier).
      const registrations = new Map<string, { scopeURL: string; isDeleted: boolean }>();
      cdp.on('ServiceWorker.workerRegistrationUpdated', (e) => {
        for (const r of e.registrations) registrations.set(r.registrationId, r);
      });
      await cdp.send('ServiceWorker.enable');
      const origin = new URL(page.url()).origin;
      const appRegistration = () =>
        [...registrations].find(([, r]) => r.scopeURL === `${origin}/` && !r.isDeleted)?.[0];
      await expect.poll(appRegistration).toBeTruthy();

      // Noa answers through the API; the server pushes to Léa's subscription.
      const text = 'Oui ! Rendez-vous à 8 h devant les letchis.';
      const sent = await request.post(`/api/conversations/${conversationId}/messages`, {
        data: { content: text },
        headers: { Authorization: `Bearer ${noa.token}` },
      });
      expect(sent.status(), await sent.text()).toBe(201);
      await expect.poll(() => service.received.filter((r) => r.path === pushPath).length).toBe(1);
      const push = service.received.find((r) => r.path === pushPath)!;
      expect(push.headers['content-encoding']).toBe('aes128gcm');
      expect(String(push.headers.authorization)).toMatch(/^vapid t=.+, k=/);
      const plaintext = decrypt(push.body, ecdh, authSecret);
      expect(JSON.parse(plaintext)).toEqual({
        title: noa.nickname,
        body: text,
        url: `/messages?conversation=${conversationId}`,
        tag: `conversation:${conversationId}`,
      });

      // The push reaches the service worker, which shows it.
      const deliver = () =>
        cdp.send('ServiceWorker.deliverPushMessage', { origin, registrationId: appRegistration()!, data: plaintext });
      await deliver();
      const notifications = () =>
        worker.evaluate(async () =>
          (await (self as unknown as ServiceWorkerGlobal).registration.getNotifications()).map((n) => ({
            title: n.title,
            body: n.body,
            tag: n.tag,
            icon: n.icon,
            url: (n.data as { url: string }).url,
          })),
        );
      // CDP's delivery stands in for the push service, which delivers again until the worker took
      // it: one the browser dropped while (re)starting the worker is delivered once more.
      const shown = async () => {
        const list = await notifications();
        if (list.length === 0) await deliver();
        return list;
      };
      await expect.poll(shown).toEqual([
        {
          title: noa.nickname,
          body: text,
          tag: `conversation:${conversationId}`,
          icon: `${origin}/logo.svg`,
          url: `${origin}/messages?conversation=${conversationId}`,
        },
      ]);

      // Its click (see the header): the open tab, on the profile, goes to the conversation.
      expect(new URL(page.url()).pathname).toBe('/profile');
      await worker.evaluate(async () => {
        const sw = self as unknown as ServiceWorkerGlobal;
        const [notification] = await sw.registration.getNotifications();
        const run = sw.openFromNotification;
        notification!.close();
        await run((notification!.data as { url: string }).url);
      });
      await expect(page.getByTestId('messages-screen')).toHaveAttribute('data-conversation-id', conversationId);
      await expect(page.getByTestId('chat-view')).toContainText(text);
      await cdp.detach();
    });

    test('Léa turns the preview off and removes the device from her profile', async ({ request }) => {
      await page.goto('/profile');
      const device = page.getByTestId('push-device');
      const toggled = page.waitForResponse(
        (r) => r.request().method() === 'PATCH' && new URL(r.url()).pathname.startsWith('/api/push/subscriptions/'),
      );
      await device.getByTestId('push-device-preview').click();
      expect((await toggled).status()).toBe(200);
      await expect(device.getByTestId('push-device-preview')).not.toBeChecked();
      const { token } = await apiLogin(request, leaEmail);
      const listed = async () =>
        (
          (await (
            await request.get('/api/push/subscriptions', { headers: { Authorization: `Bearer ${token}` } })
          ).json()) as { devices: Array<{ preview: boolean }> }
        ).devices;
      expect((await listed()).map((d) => d.preview)).toEqual([false]);

      await device.getByTestId('push-device-remove').click();
      await expect(page.getByText('Appareil retiré')).toBeVisible();
      await expect(device).toHaveCount(0);
      await expect(page.getByTestId('push-devices')).toContainText('Aucun appareil ne reçoit de notifications.');
      expect(await listed()).toEqual([]);
    });

    test("'Plus tard' is remembered: the offer is not made again", async ({ browser, request }) => {
      const camilleEmail = uniqueEmail('camille-push');
      await createConfirmedAccount(request, { email: camilleEmail, firstName: 'Camille', lastName: 'Grondin' });
      const camille = await apiLogin(request, camilleEmail);
      const opened = await request.post('/api/conversations', {
        data: { userId: noa.id },
        headers: { Authorization: `Bearer ${camille.token}` },
      });
      const id = ((await opened.json()) as { conversation: { id: string } }).conversation.id;
      const other = await browser.newContext({
        viewport: { width: 1280, height: 860 },
        locale: 'fr-FR',
        extraHTTPHeaders: clientAddress(),
      });
      try {
        const tab = await other.newPage();
        await signInFromHome(tab, camilleEmail);
        const send = async (content: string) => {
          await tab.getByTestId('message-input').fill(content);
          await tab.getByTestId('message-send').click();
          await expect(tab.getByTestId('message-bubble').filter({ hasText: content })).toBeVisible();
        };
        await tab.goto(`/messages?conversation=${id}`);
        await send('Bonjour Noa !');
        await tab.getByTestId('push-offer-later').click();
        await expect(tab.getByTestId('push-offer')).toHaveCount(0);
        await send('Tu es dispo demain ?');
        // Another visit (the address was rewritten to /messages: open the conversation again).
        await tab.goto(`/messages?conversation=${id}`);
        await send('Je repasse plus tard.');
        await expect(tab.getByTestId('push-offer')).toHaveCount(0);
        // Nothing was subscribed.
        const devices = await request.get('/api/push/subscriptions', {
          headers: { Authorization: `Bearer ${camille.token}` },
        });
        expect(((await devices.json()) as { devices: unknown[] }).devices).toEqual([]);
      } finally {
        await other.close();
      }
    });
  });
