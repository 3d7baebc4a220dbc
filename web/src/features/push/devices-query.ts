/** The devices list and its preview switch, as TanStack Query hooks (the plain calls: push-api.ts). */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { PushDeviceDto } from '@moodmap/core';
import { api } from '../../lib/api.ts';
import { useSessionStore } from '../auth/session-store.ts';

export const pushDevicesKey = ['push', 'devices'] as const;

export function useDevices() {
  const signedIn = useSessionStore((s) => s.user !== null);
  return useQuery({
    queryKey: pushDevicesKey,
    enabled: signedIn,
    queryFn: ({ signal }) =>
      api<{ devices: PushDeviceDto[] }>('/api/push/subscriptions', { signal }).then((r) => r.devices),
    staleTime: 30_000,
  });
}

export function useSetPreview() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, preview }: { id: string; preview: boolean }) =>
      api<{ device: PushDeviceDto }>(`/api/push/subscriptions/${encodeURIComponent(id)}`, {
        method: 'PATCH',
        body: { preview },
      }).then((r) => r.device),
    onSuccess: (device) =>
      client.setQueryData<PushDeviceDto[]>(pushDevicesKey, (list) =>
        list?.map((d) => (d.id === device.id ? device : d)),
      ),
  });
}
