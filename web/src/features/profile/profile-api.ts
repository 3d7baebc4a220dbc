/**
 * The profiles API as the web app calls it, and the hooks the three profile screens
 * share: the public read, the owner's edits, and "Envoyer un message".
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import {
  CACHE_TTL_MS,
  SHELL_MESSAGES,
  type AuthUserResponse,
  type CreateConversationInput,
  type UpdateProfileInput,
} from '@moodmap/core';
import { useSessionStore } from '../auth/session-store.ts';
import { toSessionUser, type SessionUser } from '../auth/auth-api.ts';
import { ApiError, api } from '../../lib/api.ts';
import { parseAnswerLazy } from '../../lib/schemas.ts';
import { toast } from '../../ui/toasts/toast-store.ts';
import { uploadFile } from '../posts/posts-api.ts';
import { profileKey } from './profile-key.ts';
import { readPublicProfile, type PublicProfile } from './public-profile.ts';

export { profileKey };

export async function fetchPublicProfile(id: string, signal?: AbortSignal): Promise<PublicProfile | null> {
  return readPublicProfile(await api<unknown>(`/api/profiles/${encodeURIComponent(id)}`, { signal }));
}

/** A user's public profile and live posts; a 404 (or an unreadable answer) gives null: 'Profil introuvable'. */
export function usePublicProfile(id: string | null, staleTime: number = CACHE_TTL_MS.profiles) {
  return useQuery({
    queryKey: profileKey(id ?? ''),
    enabled: Boolean(id),
    queryFn: async ({ signal }) => {
      try {
        return await fetchPublicProfile(id!, signal);
      } catch (error) {
        // Profile load failures are silent; a missing profile is 'Profil introuvable'.
        if (error instanceof ApiError && error.status >= 400 && error.status < 500) return null;
        throw error;
      }
    },
    staleTime,
    retry: (count) => count < 2,
  });
}

/** Every edit answers `{ user }` (core's authUserResponseSchema), read as leniently as a sign-in's. */
function userOf(payload: Partial<AuthUserResponse> | null): Promise<SessionUser | null> {
  return toSessionUser(payload?.user);
}

export async function patchProfile(body: UpdateProfileInput): Promise<SessionUser | null> {
  return userOf(await api<Partial<AuthUserResponse> | null>('/api/profiles/me', { method: 'PATCH', body }));
}

export async function uploadProfilePhoto(file: File): Promise<SessionUser | null> {
  return userOf(await uploadFile<Partial<AuthUserResponse> | null>('/api/profiles/me/photo', file, file.name));
}

export async function deleteProfilePhoto(): Promise<SessionUser | null> {
  return userOf(await api<Partial<AuthUserResponse> | null>('/api/profiles/me/photo', { method: 'DELETE' }));
}

/** The server's answer is the fresh user: shown at once, while the same person is signed in. */
export function applyUser(user: SessionUser | null): void {
  if (user && useSessionStore.getState().user?.id === user.id) useSessionStore.setState({ user });
}

/** A write to the signed-in user's profile (nickname, bio, photo); its answer, the fresh user, is shown at once. */
export function useProfileWrite<T>(write: (input: T) => Promise<SessionUser | null>) {
  return useMutation({ mutationFn: write, onSuccess: applyUser });
}

/** `POST /api/conversations { userId }` → the conversation's id. */
export async function startConversation(userId: string): Promise<string> {
  const body: CreateConversationInput = { userId };
  const { conversation } = await parseAnswerLazy(
    (s) => s.conversationResponseSchema,
    await api<unknown>('/api/conversations', { method: 'POST', body }),
    'conversation_create_failed',
  );
  if (!conversation.id)
    throw new ApiError(500, 'conversation_create_failed', SHELL_MESSAGES.conversation_create_failed);
  return conversation.id;
}

/**
 * 'Envoyer un message': shown only to a signed-in viewer who is not the profile's owner.
 * Opens (or creates) the conversation, then /messages on it.
 */
export function useSendMessage(profileId: string | null, nickname?: string, onOpened?: () => void) {
  const me = useSessionStore((s) => s.user?.id ?? null);
  const navigate = useNavigate();
  const client = useQueryClient();
  const open = useMutation({
    mutationFn: startConversation,
    onSuccess: (id) => {
      void client.invalidateQueries({ queryKey: ['conversations'] });
      onOpened?.();
      void navigate(`/messages?conversation=${encodeURIComponent(id)}`, { state: nickname ? { nickname } : undefined });
    },
    // As "Contacter" on a post does: one text, whatever the cause (a 404 included).
    onError: () => toast.error(SHELL_MESSAGES.conversation_create_failed),
  });
  const busy = open.isPending;
  const visible = me !== null && profileId !== null && me !== profileId;
  const send = () => {
    if (!profileId || busy) return;
    open.mutate(profileId);
  };
  return { visible, send, busy };
}
