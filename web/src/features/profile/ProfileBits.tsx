import { MESSAGES, MOOD_INFO, frDate, type Mood } from '@moodmap/core';
import { TierBadge, type TierFlags } from '../../ui/TierBadge.tsx';
import type { PostDto } from '../posts/post-types.ts';
import { Avatar } from './Avatar.tsx';

/** The mood's badge: emoji and label on the mood colour. */
export function MoodBadge({ mood }: { mood: Mood }) {
  const info = MOOD_INFO[mood];
  return (
    <span
      data-testid="mood-badge"
      className="inline-flex items-center gap-1 rounded-full px-2 py-0.5 text-xs font-semibold text-ink-900"
      style={{ backgroundColor: info.color }}
    >
      <span className="emoji" aria-hidden="true">
        {info.emoji}
      </span>{' '}
      {info.label}
    </span>
  );
}

export function PulseBadge() {
  return (
    <span
      data-testid="pulse-badge"
      className="inline-flex items-center rounded-full bg-gradient-to-r from-amber-400 to-rose-500 px-2 py-0.5 text-xs font-bold text-white"
    >
      ✨ {MESSAGES.pulse_badge}
    </span>
  );
}

/** A post's images, thumbnails first, without repeats. */
export function postThumbnails(post: Pick<PostDto, 'thumbnailUrl' | 'imageUrl' | 'mediaUrls'>, max: number): string[] {
  const urls = [post.thumbnailUrl ?? post.imageUrl, ...post.mediaUrls].filter((u): u is string => Boolean(u));
  return [...new Set(urls)].slice(0, max);
}

/** 'Membre depuis' date (fr-FR, 22/11/2026) or null when unknown. */
export function memberSince(iso: string | null | undefined): string | null {
  if (!iso) return null;
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? null : frDate(date);
}

/** 'Membre depuis' and the date, or nothing when it is unknown; `className` sizes it for its place. */
export function MemberSince({ createdAt, className }: { createdAt: string | null | undefined; className: string }) {
  const since = memberSince(createdAt);
  return since ? (
    <p className={className} data-testid="profile-member-since">
      {MESSAGES.profile_member_since} {since}
    </p>
  ) : null;
}

/** Navigation state the map reads to centre on a post. */
export const focusState = (postId: string) => ({ state: { focusPostId: postId } });

/**
 * Photo, name, tier badge and 'Membre depuis' of a public profile: the modal's compact header
 * and the public page's larger one (the badge precedence differs by place, TierBadge).
 */
export function ProfileIdentity({
  profile,
  place,
}: {
  profile: TierFlags & { username: string; photoUrl: string | null; createdAt?: string | null };
  place: 'modal' | 'page';
}) {
  const Name = place === 'page' ? 'h2' : 'p';
  return (
    <>
      <Avatar url={profile.photoUrl} name={profile.username} size={place === 'page' ? 76 : 72} />
      <div className={`min-w-0 ${place === 'page' ? 'pt-1' : ''}`}>
        <div className="flex flex-wrap items-center gap-2">
          <Name
            className={`truncate font-bold text-ink-900 dark:text-white ${place === 'page' ? 'text-xl' : 'text-lg'}`}
            data-testid="profile-username"
          >
            {profile.username}
          </Name>
          <TierBadge flags={profile} place={place} />
        </div>
        <MemberSince createdAt={profile.createdAt} className="text-sm text-slate-500 dark:text-slate-400" />
      </div>
    </>
  );
}
