/**
 * The devices API (server/src/modules/push/routes.ts). Plain calls, with no store: the session
 * store loads the browser's push code on sign-out; the hooks live in devices-query.ts.
 */
import type { PushDeviceDto } from '@moodmap/core';
import { api } from '../../lib/api.ts';

/** The browser's `PushSubscription.toJSON()`, as the server stores it. */
export interface SubscriptionJson {
  endpoint: string;
  expirationTime?: number | null;
  keys: { p256dh: string; auth: string };
}

export const fetchVapidKey = () => api<{ publicKey: string }>('/api/push/key').then((r) => r.publicKey);

export const saveSubscription = (subscription: SubscriptionJson) =>
  api<{ device: PushDeviceDto }>('/api/push/subscriptions', { method: 'POST', body: subscription }).then(
    (r) => r.device,
  );

export const removeDevice = (id: string) =>
  api<{ status: 'deleted' }>(`/api/push/subscriptions/${encodeURIComponent(id)}`, { method: 'DELETE' });
