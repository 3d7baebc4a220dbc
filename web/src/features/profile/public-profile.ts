import { MOODS, type Mood, isMood } from '@moodmap/core';

/** A public profile as /user/:id shows it (spec §2 "Public profile page", §3 "Profile"). */
export interface PublicProfile {
  id: string;
  username: string;
  bio: string | null;
  photoUrl: string | null;
  createdAt: string | null;
  tier: string | null;
  posts: { id: string; category: Mood; content: string }[];
}

type Raw = Record<string, unknown>;
const str = (v: unknown): string | null => (typeof v === 'string' && v ? v : null);

/** Tier badge precedence on the profile page: plus, multi, pro, premium (spec §6). */
function tierOf(p: Raw): string | null {
  const flag = (snake: string, camel: string) => p[snake] === true || p[camel] === true;
  if (flag('is_plus', 'isPlus')) return 'Plus';
  if (flag('is_multi', 'isMulti')) return 'Multi';
  if (flag('is_pro', 'isPro')) return 'Pro';
  if (flag('is_premium', 'isPremium')) return 'Premium';
  return str(p.tier);
}

/**
 * Reads `GET /api/profiles/:id` defensively, accepting the spec's snake_case columns or camelCase,
 * either bare or under `profile`, with optional `posts`.
 */
export function readPublicProfile(payload: unknown): PublicProfile | null {
  if (!payload || typeof payload !== 'object') return null;
  const root = payload as Raw;
  const p = (root.profile && typeof root.profile === 'object' ? root.profile : root) as Raw;
  const id = str(p.id);
  if (!id) return null;
  const rawPosts = Array.isArray(root.posts) ? root.posts : Array.isArray(p.posts) ? p.posts : [];
  const posts = rawPosts
    .filter((x): x is Raw => !!x && typeof x === 'object')
    .map((x) => ({ id: String(x.id ?? ''), category: isMood(x.category) ? x.category : MOODS[0], content: typeof x.content === 'string' ? x.content : '' }))
    .filter((x) => x.id);
  return {
    id,
    username: str(p.username) ?? str(p.nickname) ?? 'Utilisateur',
    bio: str(p.bio),
    photoUrl: str(p.profile_photo_url) ?? str(p.profilePhotoUrl) ?? str(p.avatar_url) ?? str(p.avatarUrl),
    createdAt: str(p.created_at) ?? str(p.createdAt),
    tier: tierOf(p),
    posts,
  };
}
