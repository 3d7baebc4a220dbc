/** The admin panel's data: the visit, the two keyset lists, the moderation queue. */
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AdminUsersResponse, DecisionInput, ModerationQueue, SecurityLogsResponse } from '@moodmap/core';
import { api } from '../../lib/api.ts';

export const adminKey = ['admin'] as const;

/** Logs 'admin_access' for staff; once per opening of the panel. */
export function useAdminVisit(enabled: boolean) {
  return useQuery({
    queryKey: [...adminKey, 'visit'],
    enabled,
    queryFn: () => api<{ role: string }>('/api/admin/visit', { method: 'POST' }),
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
  });
}

function params(entries: Record<string, string | undefined | null>): string {
  const search = new URLSearchParams();
  for (const [k, v] of Object.entries(entries)) if (v) search.set(k, v);
  const text = search.toString();
  return text ? `?${text}` : '';
}

export function useAdminUsers(q: string) {
  return useInfiniteQuery({
    queryKey: [...adminKey, 'users', q],
    initialPageParam: null as string | null,
    queryFn: ({ pageParam, signal }) =>
      api<AdminUsersResponse>(`/api/admin/users${params({ q, cursor: pageParam })}`, { signal }),
    getNextPageParam: (last) => last.nextCursor,
  });
}

export function useSecurityLogs(severity: string, eventType: string) {
  return useInfiniteQuery({
    queryKey: [...adminKey, 'logs', severity, eventType],
    initialPageParam: null as string | null,
    queryFn: ({ pageParam, signal }) =>
      api<SecurityLogsResponse>(`/api/admin/security-logs${params({ severity, eventType, cursor: pageParam })}`, {
        signal,
      }),
    getNextPageParam: (last) => last.nextCursor,
  });
}

export function useModerationQueue() {
  return useQuery({
    queryKey: [...adminKey, 'queue'],
    queryFn: ({ signal }) => api<ModerationQueue>('/api/moderation/queue', { signal }),
  });
}

export function useDecide() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ postId, input }: { postId: string; input: DecisionInput }) =>
      api(`/api/moderation/posts/${encodeURIComponent(postId)}/decision`, { method: 'POST', body: input }),
    onSuccess: () => client.invalidateQueries({ queryKey: adminKey }),
  });
}

export function useDecideAppeal() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ appealId, outcome, note }: { appealId: string; outcome: 'uphold' | 'reverse'; note: string }) =>
      api(`/api/moderation/appeals/${encodeURIComponent(appealId)}/decision`, {
        method: 'POST',
        body: { outcome, note },
      }),
    onSuccess: () => client.invalidateQueries({ queryKey: adminKey }),
  });
}

export function useSetRole() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ userId, role }: { userId: string; role: string }) =>
      api(`/api/admin/users/${encodeURIComponent(userId)}/role`, { method: 'PUT', body: { role } }),
    onSuccess: () => client.invalidateQueries({ queryKey: adminKey }),
  });
}
