/**
 * 'profile.updated' { userId, username, photoUrl } reaches every open tab when someone changes
 * their nickname or photo. Without it a map would keep the old photo on that person's
 * marker, and a chat the old name, until the next full read. It is applied in place:
 * - every cached post by them (the map, the feed, search results) shows the new author;
 * - every cached comment by them, and every conversation held with them;
 * - their public profile is read again when next shown;
 * - in my other tabs, my own change reloads my session's profile.
 * The nickname a post was published under (`post.nickname`) stays as it was.
 */
import { useEffect } from 'react';
import { type QueryClient, useQueryClient } from '@tanstack/react-query';
import type { ProfileUpdatedEvent } from '@moodmap/core';
import { useSessionStore } from '../auth/session-store.ts';
import { updateAllCachedComments } from '../comments/comments-cache.ts';
import { subscribeRealtime } from '../../lib/realtime.ts';
import { updateParticipant } from '../messages/messages-cache.ts';
import { updateAllCachedPosts } from '../posts/posts-cache.ts';
import { updateMarkersOf } from '../posts/posts-query.ts';
import { profileKey } from './profile-key.ts';

type Author = { username: string; photoUrl: string | null };

function readProfileUpdated(data: unknown): ProfileUpdatedEvent['data'] | null {
  const d = (data ?? {}) as Record<string, unknown>;
  if (typeof d.userId !== 'string' || !d.userId || typeof d.username !== 'string' || !d.username) return null;
  if (d.photoUrl !== null && typeof d.photoUrl !== 'string') return null;
  return { userId: d.userId, username: d.username, photoUrl: d.photoUrl };
}

/** The same author object when nothing changed, so untouched caches keep their identity. */
function renamed<T extends Author>(author: T, next: Author): T {
  return author.username === next.username && author.photoUrl === next.photoUrl ? author : { ...author, ...next };
}

export function applyProfileUpdate(
  client: QueryClient,
  { userId, username, photoUrl }: ProfileUpdatedEvent['data'],
): void {
  const next = { username, photoUrl };
  // Posts and comments carry the same author shape: one rewrite serves both caches.
  const withNewAuthor = <T extends { userId: string; author: Author }>(item: T): T => {
    if (item.userId !== userId) return item;
    const author = renamed(item.author, next);
    return author === item.author ? item : { ...item, author };
  };
  updateAllCachedPosts(client, withNewAuthor);
  updateMarkersOf(client, userId, photoUrl);
  updateAllCachedComments(client, withNewAuthor);
  updateParticipant(client, { id: userId, nickname: username, profilePhotoUrl: photoUrl });
  void client.invalidateQueries({ queryKey: profileKey(userId) });
  const session = useSessionStore.getState();
  const me = session.user;
  if (me?.id === userId && (me.nickname !== username || (me.profilePhotoUrl ?? null) !== photoUrl))
    void session.reloadUser();
}

export function bridgeProfileRealtime(client: QueryClient): () => void {
  return subscribeRealtime('profile.updated', (event) => {
    const data = readProfileUpdated(event.data);
    if (data) applyProfileUpdate(client, data);
  });
}

/** Mounted once in the shell: anyone's new name or photo shows wherever it is drawn. */
export function useProfileRealtime(): void {
  const client = useQueryClient();
  useEffect(() => bridgeProfileRealtime(client), [client]);
}
