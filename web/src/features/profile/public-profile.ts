import type { TierFlags } from '../../ui/TierBadge.tsx';
import { readPost, type PostDto } from '../posts/post-types.ts';

/** A public profile as the modal and /user/:id show it. */
export interface PublicProfile extends TierFlags {
  id: string;
  username: string;
  bio: string | null;
  photoUrl: string | null;
  createdAt: string | null;
  /** Live posts, newest first. */
  posts: PostDto[];
}

type Raw = Record<string, unknown>;
const str = (v: unknown): string | null => (typeof v === 'string' && v ? v : null);

/**
 * Reads `GET /api/profiles/:id` → `{ profile, posts }` defensively (camelCase as the server
 * sends it, or the database's snake_case columns); null when there is no profile in it.
 */
export async function readPublicProfile(payload: unknown): Promise<PublicProfile | null> {
  if (!payload || typeof payload !== 'object') return null;
  const root = payload as Raw;
  const p = (root.profile && typeof root.profile === 'object' ? root.profile : root) as Raw;
  const id = str(p.id);
  if (!id) return null;
  const rawPosts = Array.isArray(root.posts) ? root.posts : Array.isArray(p.posts) ? p.posts : [];
  const flag = (snake: string, camel: string) => p[snake] === true || p[camel] === true;
  return {
    id,
    username: str(p.username) ?? str(p.nickname) ?? 'Utilisateur',
    bio: str(p.bio),
    photoUrl: str(p.profilePhotoUrl) ?? str(p.profile_photo_url) ?? str(p.avatarUrl) ?? str(p.avatar_url),
    createdAt: str(p.createdAt) ?? str(p.created_at),
    isPremium: flag('is_premium', 'isPremium'),
    isPro: flag('is_pro', 'isPro'),
    isPlus: flag('is_plus', 'isPlus'),
    isMulti: flag('is_multi', 'isMulti'),
    posts: (await Promise.all(rawPosts.map(readPost))).filter((x): x is PostDto => x !== null),
  };
}
