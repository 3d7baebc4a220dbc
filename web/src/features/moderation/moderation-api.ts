/**
 * The moderation API as the web app calls it: blocks, my notices and appeals. The
 * server enforces every rule; these hooks keep the caches in step.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { MESSAGES, MINUTE, type AppealLinkAnswer, type BlockedUser, type NoticesResponse } from '@moodmap/core';
import { api, errorText } from '../../lib/api.ts';
import { toast } from '../../ui/toasts/toast-store.ts';
import { useSessionStore } from '../auth/session-store.ts';

export const blocksKey = ['blocks'] as const;
export const noticesKey = ['moderation', 'notices'] as const;

export function useBlocked() {
  const signedIn = useSessionStore((s) => s.user !== null);
  return useQuery({
    queryKey: blocksKey,
    enabled: signedIn,
    queryFn: ({ signal }) => api<{ blocked: BlockedUser[] }>('/api/blocks', { signal }).then((r) => r.blocked),
    staleTime: MINUTE,
  });
}

/** Block or unblock; the map's answers and cards are refetched so the other's posts leave or come back. */
export function useToggleBlock(userId: string) {
  const client = useQueryClient();
  const blocked = useBlocked();
  const isBlocked = blocked.data?.some((b) => b.id === userId) ?? false;
  const mutation = useMutation({
    mutationFn: () =>
      api<{ blocked: boolean }>(`/api/blocks/${encodeURIComponent(userId)}`, { method: isBlocked ? 'DELETE' : 'PUT' }),
    onSuccess: (result) => {
      toast.success(result.blocked ? MESSAGES.block_done : MESSAGES.unblock_done);
      void client.invalidateQueries({ queryKey: blocksKey });
      void client.invalidateQueries({ queryKey: ['posts'] });
      void client.invalidateQueries({ queryKey: ['comments'] });
    },
    onError: (error) => toast.error(errorText(error)),
  });
  return { isBlocked, toggle: () => mutation.mutate(), busy: mutation.isPending || blocked.isPending };
}

export function useNotices() {
  const signedIn = useSessionStore((s) => s.user !== null);
  return useQuery({
    queryKey: noticesKey,
    enabled: signedIn,
    queryFn: ({ signal }) => api<NoticesResponse>('/api/moderation/notices', { signal }),
    staleTime: 30_000,
  });
}

export function useAppeal(decisionId: string, onDone: () => void) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (statement: string) =>
      api(`/api/moderation/decisions/${encodeURIComponent(decisionId)}/appeal`, {
        method: 'POST',
        body: { statement },
      }),
    onSuccess: () => {
      toast.success(MESSAGES.appeal_sent);
      void client.invalidateQueries({ queryKey: noticesKey });
      onDone();
    },
    onError: (error) => toast.error(errorText(error)),
  });
}

/** The statement an e-mailed appeal link names (no sign-in: a banned author can read it). */
export function useAppealLink(token: string) {
  return useQuery({
    queryKey: ['moderation', 'appeal-link', token],
    queryFn: ({ signal }) =>
      api<AppealLinkAnswer>(`/api/moderation/appeal-link?token=${encodeURIComponent(token)}`, { signal }),
    retry: false,
  });
}

export function useAppealByLink(token: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (statement: string) =>
      api('/api/moderation/appeal-link', { method: 'POST', body: { token, statement } }),
    onSuccess: () => {
      toast.success(MESSAGES.appeal_sent);
      void client.invalidateQueries({ queryKey: ['moderation', 'appeal-link', token] });
    },
    onError: (error) => toast.error(errorText(error)),
  });
}
