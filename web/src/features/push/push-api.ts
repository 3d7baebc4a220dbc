/** The devices API (server/src/modules/push/routes.ts) and its TanStack Query hooks. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { PushDeviceDto } from '@moodmap/core';
import { api } from '../../lib/api.ts';
import { useSessionStore } from '../auth/session-store.ts';

export const pushDevicesKey = ['push', 'devices'] as const;

/** The browser's `PushSubscription.toJSON()`, as the server stores it. */
export interface SubscriptionJson {
  endpoint: string;
  expirationTime?: number | null;
  keys: { p256dh: string; auth: string };
}

export const fetchVapidKey = () => api<{ publicKey: string }>('/api/push/key').then((r) => r.publicKey);

export const saveSubscription = (subscription: SubscriptionJson) =>
  api<{ device: PushDeviceDto }>('/api/push/subscriptions', { method: 'POST', body: subscription }).then((r) => r.device);

export const removeDevice = (id: string) => api<{ status: 'deleted' }>(`/api/push/subscriptions/${encodeURIComponent(id)}`, { method: 'DELETE' });

export function useDevices() {
  const signedIn = useSessionStore((s) => s.user !== null);
  return useQuery({
    queryKey: pushDevicesKey,
    enabled: signedIn,
    queryFn: ({ signal }) => api<{ devices: PushDeviceDto[] }>('/api/push/subscriptions', { signal }).then((r) => r.devices),
    staleTime: 30_000,
  });
}

export function useSetPreview() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, preview }: { id: string; preview: boolean }) =>
      api<{ device: PushDeviceDto }>(`/api/push/subscriptions/${encodeURIComponent(id)}`, { method: 'PATCH', body: { preview } }).then((r) => r.device),
    onSuccess: (device) => client.setQueryData<PushDeviceDto[]>(pushDevicesKey, (list) => list?.map((d) => (d.id === device.id ? device : d))),
  });
}
