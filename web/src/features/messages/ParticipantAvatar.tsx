import type { ParticipantDto } from '@moodmap/core';
import { UserIcon } from '../../ui/icons.tsx';
import { Avatar } from '../profile/Avatar.tsx';

/** The other person's account was deleted: no id, no photo, no profile, no reply. */
export const isDeletedAccount = (participant: ParticipantDto | null | undefined): boolean => participant?.id === null;

/**
 * The other person's photo or initial; a deleted account gets a plain grey silhouette, so the
 * 'C' of 'Compte supprimé' is not taken for someone's initial.
 */
export function ParticipantAvatar({ participant, size }: { participant: ParticipantDto; size: number }) {
  if (!isDeletedAccount(participant))
    return <Avatar url={participant.profilePhotoUrl} name={participant.nickname} size={size} />;
  return (
    <span
      aria-hidden="true"
      data-testid="deleted-account-avatar"
      style={{ width: size, height: size }}
      className="flex shrink-0 items-center justify-center rounded-full bg-slate-200 text-slate-500 dark:bg-ink-700 dark:text-slate-400"
    >
      <UserIcon size={Math.round(size * 0.5)} />
    </span>
  );
}
