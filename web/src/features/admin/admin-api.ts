/** The admin panel's data: the visit, the two keyset lists, the moderation queue. */
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  MESSAGES,
  type AdminUsersResponse,
  type DecisionInput,
  type ModerationQueue,
  type SecurityLogsResponse,
} from '@moodmap/core';
import { api, errorText } from '../../lib/api.ts';
import { toast } from '../../ui/toasts/toast-store.ts';

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

/**
 * A staff action's outcome is told by the hook, not by `mutate`'s own callbacks: those are dropped
 * when the form unmounts first, and a decision takes its post (and its form) out of the queue.
 */
function useStaffAction<Input>(mutationFn: (input: Input) => Promise<unknown>, done: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: () => {
      toast.success(done);
      return client.invalidateQueries({ queryKey: adminKey });
    },
    onError: (error) => toast.error(errorText(error)),
  });
}

export function useDecide() {
  return useStaffAction(
    ({ postId, input }: { postId: string; input: DecisionInput }) =>
      api(`/api/moderation/posts/${encodeURIComponent(postId)}/decision`, { method: 'POST', body: input }),
    MESSAGES.mod_decision_done,
  );
}

export function useDecideAppeal() {
  return useStaffAction(
    ({ appealId, outcome, note }: { appealId: string; outcome: 'uphold' | 'reverse'; note: string }) =>
      api(`/api/moderation/appeals/${encodeURIComponent(appealId)}/decision`, {
        method: 'POST',
        body: { outcome, note },
      }),
    MESSAGES.mod_appeal_decided,
  );
}

export function useSetRole() {
  return useStaffAction(
    ({ userId, role }: { userId: string; role: string }) =>
      api(`/api/admin/users/${encodeURIComponent(userId)}/role`, { method: 'PUT', body: { role } }),
    MESSAGES.admin_role_changed,
  );
}
