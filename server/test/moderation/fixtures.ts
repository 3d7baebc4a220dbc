/** Members with staff roles, for the admin and moderation suites. */
import { sql } from 'drizzle-orm';
import type { StaffRole } from '@moodmap/core';
import { call, type AuthTestApp } from '../helpers/auth.ts';
import { member, type Member } from '../interactions/fixtures.ts';

export async function staff(t: AuthTestApp, role: Exclude<StaffRole, 'user'>, nickname?: string): Promise<Member> {
  const m = await member(t, nickname);
  await t.database.db.execute(sql`insert into staff_roles (user_id, role) values (${m.id}, ${role})`);
  return m;
}

/** One caller per role of the matrix; the visitor has no token. */
export async function everyRole(t: AuthTestApp) {
  return {
    visitor: null,
    user: await member(t),
    moderator: await staff(t, 'moderator'),
    admin: await staff(t, 'admin'),
    super_admin: await staff(t, 'super_admin'),
  } as const;
}

export type RoleName = 'visitor' | 'user' | 'moderator' | 'admin' | 'super_admin';

export function as(t: AuthTestApp, who: Member | null, options: Parameters<typeof call>[1]) {
  return call(t, who ? { ...options, token: who.token } : options);
}
