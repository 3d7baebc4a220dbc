/**
 * The signed-in user as every auth answer returns it, with the profile created on demand
 * (a missing profile is created at sign-in: docs/product.md, Accounts).
 */
import { eq, sql } from 'drizzle-orm';
import { NICKNAME_MAX, STAFF_ROLES, type AuthProfile, type AuthUser, type StaffRole } from '@moodmap/core';
import type { Db } from '../../db/client.ts';
import { profiles, staffRoles, users } from '../../db/schema.ts';

export type UserRow = typeof users.$inferSelect;
type ProfileRow = typeof profiles.$inferSelect;

export type ProfileDto = AuthProfile;
export type UserDto = AuthUser;

/** The name shown: the profile's username, else the nickname metadata, else the first name, else the e-mail's local part, else 'Utilisateur'. */
export function usernameFor(user: Pick<UserRow, 'email' | 'metadata'>, profileUsername?: string | null): string {
  const candidates = [profileUsername, user.metadata?.nickname, user.metadata?.first_name, user.email.split('@')[0]];
  for (const candidate of candidates) {
    const value = typeof candidate === 'string' ? Array.from(candidate.trim()).slice(0, NICKNAME_MAX).join('') : '';
    if (value) return value;
  }
  return 'Utilisateur';
}

export async function findUserByEmail(db: Db, email: string): Promise<UserRow | undefined> {
  // lower(email) is what the unique index covers.
  const [row] = await db.select().from(users).where(sql`lower(${users.email}) = ${email.toLowerCase()}`).limit(1);
  return row;
}

export async function findUserById(db: Db, id: string): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.id, id)).limit(1);
  return row;
}

export async function getRole(db: Db, userId: string): Promise<StaffRole> {
  const [row] = await db
    .select({ role: staffRoles.role })
    .from(staffRoles)
    .where(eq(staffRoles.userId, userId))
    .limit(1);
  return row && (STAFF_ROLES as readonly string[]).includes(row.role) ? (row.role as StaffRole) : 'user';
}

/** The user's profile, created from their sign-up data when missing (concurrent calls are safe). */
export async function ensureProfile(db: Db, user: UserRow): Promise<ProfileRow> {
  const [existing] = await db.select().from(profiles).where(eq(profiles.id, user.id)).limit(1);
  if (existing) return existing;
  await db
    .insert(profiles)
    .values({
      id: user.id,
      username: usernameFor(user),
      firstName: user.metadata?.first_name ?? null,
      lastName: user.metadata?.last_name ?? null,
    })
    .onConflictDoNothing();
  const [created] = await db.select().from(profiles).where(eq(profiles.id, user.id)).limit(1);
  return created;
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function profileDto(p: ProfileRow): ProfileDto {
  return {
    id: p.id,
    username: p.username,
    bio: p.bio,
    profilePhotoUrl: p.profilePhotoUrl,
    avatarUrl: p.avatarUrl,
    firstName: p.firstName,
    lastName: p.lastName,
    dateOfBirth: p.dateOfBirth,
    phoneNumber: p.phoneNumber,
    createdAt: p.createdAt.toISOString(),
    isPremium: p.isPremium,
    isPro: p.isPro,
    isPlus: p.isPlus,
    isMulti: p.isMulti,
    pulseCredits: p.pulseCredits,
    lastUsernameChange: iso(p.lastUsernameChange),
    usernameChangesCount: p.usernameChangesCount,
  };
}

export async function userDto(db: Db, user: UserRow, adminEmail: string | undefined): Promise<UserDto> {
  const [profile, role] = await Promise.all([ensureProfile(db, user), getRole(db, user.id)]);
  return {
    id: user.id,
    email: user.email,
    role,
    isAdmin: Boolean(adminEmail) && user.email.toLowerCase() === adminEmail,
    profile: profileDto(profile),
    // Sign-in shows a suspension's end; the browser compares it with its clock.
    suspendedUntil: user.suspendedUntil ? user.suspendedUntil.toISOString() : null,
  };
}
