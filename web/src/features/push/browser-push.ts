/**
 * This browser's side of Web Push: permission, the service worker's PushManager subscription
 * (bound to the server's VAPID key), and which stored device is this one. The service worker
 * (web/public/sw.js) shows what arrives and opens its address on a click.
 */
import { MESSAGES } from '@moodmap/core';
import { readJson, removeKey, writeJson } from '../../lib/storage.ts';
import { fetchVapidKey, removeDevice, saveSubscription, type SubscriptionJson } from './push-api.ts';

/** The id of the device this browser registered (for 'Cet appareil'); not a secret. */
const DEVICE_KEY = 'moodmap.pushDevice';
/** Set once the user answered the offer ('Plus tard' or after enabling): it is not made again. */
const OFFER_KEY = 'moodmap.pushOffer';
const READY_TIMEOUT_MS = 10_000;

export function pushSupported(): boolean {
  return (
    typeof window !== 'undefined' && 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window
  );
}

export const pushPermission = (): NotificationPermission | 'unsupported' =>
  pushSupported() ? Notification.permission : 'unsupported';

export const thisDeviceId = (): string | null => {
  const id = readJson(DEVICE_KEY);
  return typeof id === 'string' ? id : null;
};

export const offerAnswered = () => readJson(OFFER_KEY) !== null;
export const rememberOfferAnswer = (answer: 'later' | 'enabled') => writeJson(OFFER_KEY, answer);

function base64urlToBytes(value: string): Uint8Array<ArrayBuffer> {
  const base64 = value
    .replace(/-/g, '+')
    .replace(/_/g, '/')
    .padEnd(Math.ceil(value.length / 4) * 4, '=');
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

const sameKey = (a: ArrayBuffer | null | undefined, b: Uint8Array) =>
  !!a && a.byteLength === b.length && new Uint8Array(a).every((v, i) => v === b[i]);

/** The service worker, registered at load in production builds (main.tsx). */
async function registration(): Promise<ServiceWorkerRegistration> {
  const ready = navigator.serviceWorker.ready;
  const timeout = new Promise<never>((_, reject) =>
    setTimeout(() => reject(new Error('no service worker')), READY_TIMEOUT_MS),
  );
  return Promise.race([ready, timeout]);
}

export class PushSetupError extends Error {}

/**
 * Asks the permission (call it from a click), subscribes this browser and stores it on the
 * server. Throws PushSetupError with the French reason.
 */
export async function enablePush(): Promise<void> {
  if (!pushSupported()) throw new PushSetupError(MESSAGES.push_unsupported);
  const permission = await Notification.requestPermission();
  if (permission !== 'granted') throw new PushSetupError(MESSAGES.push_denied);
  try {
    const [reg, key] = await Promise.all([registration(), fetchVapidKey()]);
    const serverKey = base64urlToBytes(key);
    let subscription = await reg.pushManager.getSubscription();
    // A subscription made for another key (keys changed on the server) cannot be used.
    if (subscription && !sameKey(subscription.options.applicationServerKey, serverKey)) {
      await subscription.unsubscribe().catch(() => false);
      subscription = null;
    }
    subscription ??= await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: serverKey });
    const device = await saveSubscription(subscription.toJSON() as SubscriptionJson);
    writeJson(DEVICE_KEY, device.id);
  } catch (error) {
    if (error instanceof Error && 'status' in error && typeof error.message === 'string' && error.message)
      throw new PushSetupError(error.message);
    throw new PushSetupError(MESSAGES.push_failed);
  }
}

/** Removes a device; when it is this browser, its PushManager subscription ends too. */
export async function forgetDevice(id: string): Promise<void> {
  await removeDevice(id);
  if (id !== thisDeviceId()) return;
  removeKey(DEVICE_KEY);
  const reg = await navigator.serviceWorker?.getRegistration().catch(() => undefined);
  await (await reg?.pushManager.getSubscription())?.unsubscribe().catch(() => false);
}

/**
 * At sign-out: this browser's subscription ends at the push service, so nothing more reaches
 * the next person using it. No request to our server is needed (the session is already gone):
 * the next push to the old endpoint is answered 410 and the server forgets the device then.
 */
export async function endPushOnThisBrowser(): Promise<void> {
  if (!pushSupported()) return;
  removeKey(DEVICE_KEY);
  const reg = await navigator.serviceWorker.getRegistration().catch(() => undefined);
  await (await reg?.pushManager.getSubscription())?.unsubscribe().catch(() => false);
}
