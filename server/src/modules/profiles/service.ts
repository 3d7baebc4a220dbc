/**
 * Profiles: the public read, and the owner's edits of the only editable fields —
 * nickname (once per 30 days, by ctx.now), bio and photo. Tier flags, credits, role and change
 * counters are never written here: no statement below takes a column name from a request.
 */
import { and, eq, isNull, lte, ne, or, sql } from 'drizzle-orm';
import {
  nextNicknameChangeAt,
  nicknameCooldownCutoff,
  t,
  type PostDto,
  type PublicProfile,
  type PublicProfileResponse,
} from '@moodmap/core';
import type { PgUpdateSetSource } from 'drizzle-orm/pg-core';
import type { MediaStorage } from '../../adapters/storage/types.ts';
import type { Db } from '../../db/client.ts';
import { profiles } from '../../db/schema.ts';
import { AppError, badRequest, appError, notFound } from '../../errors.ts';
import { ensureProfile, findUserById, userDto, type UserDto } from '../auth/users.ts';
import { KEY_PREFIX } from '../media/index.ts';
import { liveCardsOfUser, setAuthorPhoto } from '../posts/data.ts';
import { toPostDto } from '../posts/dto.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The only columns a public read selects. */
const publicColumns = {
  id: profiles.id,
  username: profiles.username,
  bio: profiles.bio,
  profilePhotoUrl: profiles.profilePhotoUrl,
  avatarUrl: profiles.avatarUrl,
  createdAt: profiles.createdAt,
  isPremium: profiles.isPremium,
  isPro: profiles.isPro,
  isPlus: profiles.isPlus,
  isMulti: profiles.isMulti,
};

export async function getPublicProfile(db: Db, id: string, viewerId: string | null): Promise<PublicProfileResponse> {
  if (!UUID.test(id)) throw notFound('profile_not_found');
  const [row] = await db.select(publicColumns).from(profiles).where(eq(profiles.id, id)).limit(1);
  if (!row) throw notFound('profile_not_found');
  const profile: PublicProfile = { ...row, createdAt: row.createdAt.toISOString() };
  const posts: PostDto[] = (await liveCardsOfUser(db, id, viewerId)).map(toPostDto);
  return { profile, posts };
}

/** The owner's view, the same as /api/auth/session's `user`. */
export async function ownerView(db: Db, userId: string, adminEmail: string | undefined): Promise<UserDto> {
  const user = await findUserById(db, userId);
  if (!user) throw appError(401, 'not_authenticated');
  return userDto(db, user, adminEmail);
}

/** The 409 of a change within 30 days, with the date the next one is allowed. */
function nicknameBlocked(nextAllowedAt: Date): AppError {
  return new AppError(
    409,
    'nickname_blocked',
    t('nickname_blocked'),
    {},
    { nextAllowedAt: nextAllowedAt.toISOString() },
  );
}

export interface ProfileChanges {
  /** Already validated by core's nicknameSchema (trimmed, NFC, allowed characters). */
  nickname?: string;
  /** Already validated and sanitised by core's bioSchema; null clears it. */
  bio?: string | null;
}

export interface UpdateResult {
  nicknameChanged: boolean;
  username: string;
  photoUrl: string | null;
}

/**
 * Applies nickname and/or bio in one statement, all or nothing. The cooldown and "must differ"
 * are re-checked by the UPDATE's own condition, so two simultaneous changes cannot both pass.
 */
export async function updateProfile(db: Db, userId: string, changes: ProfileChanges, now: Date): Promise<UpdateResult> {
  const user = await findUserById(db, userId);
  if (!user) throw appError(401, 'not_authenticated');
  const current = await ensureProfile(db, user);
  const nickname = changes.nickname;

  if (nickname !== undefined) {
    if (nickname === current.username) throw badRequest('nickname_unchanged');
    const next = nextNicknameChangeAt(current.lastUsernameChange, now);
    if (next) throw nicknameBlocked(next);
  }
  if (nickname === undefined && changes.bio === undefined) {
    return { nicknameChanged: false, username: current.username, photoUrl: current.profilePhotoUrl };
  }

  const cutoff = nicknameCooldownCutoff(now);
  const changed: PgUpdateSetSource<typeof profiles> = {};
  if (nickname !== undefined) {
    changed.username = nickname;
    changed.usernameChangesCount = sql`${profiles.usernameChangesCount} + 1`;
    changed.lastUsernameChange = now;
  }
  if (changes.bio !== undefined) changed.bio = changes.bio;
  const guard =
    nickname !== undefined
      ? and(
          ne(profiles.username, nickname),
          or(isNull(profiles.lastUsernameChange), lte(profiles.lastUsernameChange, cutoff)),
        )
      : undefined;
  const [row] = await db
    .update(profiles)
    .set(changed)
    .where(and(eq(profiles.id, userId), guard))
    .returning({ username: profiles.username, photoUrl: profiles.profilePhotoUrl });
  if (!row) {
    // Another request changed the nickname in between: answer as if it had come first.
    const [latest] = await db.select().from(profiles).where(eq(profiles.id, userId)).limit(1);
    if (latest && latest.username === nickname) throw badRequest('nickname_unchanged');
    throw nicknameBlocked(nextNicknameChangeAt(latest?.lastUsernameChange ?? now, now) ?? now);
  }
  return { nicknameChanged: nickname !== undefined, username: row.username, photoUrl: row.photoUrl };
}

export interface PhotoChange {
  username: string;
  /** URLs the profile pointed at before; the caller deletes them once this has committed. */
  previous: string[];
}

/**
 * Points the profile at a new photo (main + thumb) or at none (both null), returning the old
 * URLs. The row is locked while they are read, so concurrent uploads each get the URLs their
 * own update replaced, and every replaced file is deleted exactly once. The author's posts get
 * the new photo in the same transaction.
 */
export async function replacePhoto(
  db: Db,
  userId: string,
  photo: { url: string; thumbUrl: string | null } | null,
): Promise<PhotoChange> {
  const user = await findUserById(db, userId);
  if (!user) throw appError(401, 'not_authenticated');
  await ensureProfile(db, user);
  return db.transaction(async (tx) => {
    // FOR NO KEY UPDATE, the lock the UPDATE below takes anyway: FOR UPDATE also made every foreign
    // key to this profile wait (a comment or like of the member's, inserted after it locked its
    // post), and with the posts rewritten below that was a deadlock (test/profiles/photo-locks).
    const [previous] = await tx
      .select({ photoUrl: profiles.profilePhotoUrl, thumbUrl: profiles.avatarUrl })
      .from(profiles)
      .where(eq(profiles.id, userId))
      .for('no key update');
    if (!previous) throw appError(401, 'not_authenticated');
    const [updated] = await tx
      .update(profiles)
      .set({ profilePhotoUrl: photo?.url ?? null, avatarUrl: photo?.thumbUrl ?? null })
      .where(eq(profiles.id, userId))
      .returning({ username: profiles.username });
    // The map's markers carry the author's photo: changed with the profile's, in this
    // transaction, before profile.updated drops the cached viewport answers.
    await setAuthorPhoto(tx, userId, photo?.url ?? null);
    return {
      username: updated.username,
      previous: [previous.photoUrl, previous.thumbUrl].filter((u): u is string => Boolean(u)),
    };
  });
}

/**
 * Of a profile's old URLs, those this store wrote as avatars. Anything else (a URL from
 * elsewhere, or one pointing at another kind of media) is never deleted on a photo change.
 */
export function ownAvatarUrls(storage: MediaStorage, urls: string[]): string[] {
  return urls.filter((url) => storage.keyFromUrl(url)?.startsWith(`${KEY_PREFIX.avatar}/`));
}
