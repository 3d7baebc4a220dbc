/**
 * Who asks, and how a policy answers. A route knows its caller from the session
 * (`requireUser`: a member is their id); the staff guard (modules/admin/access.ts) also reads
 * their role. A policy is a pure function of the caller and the rows it judges, read beforehand
 * by the module's data files: it answers null when the caller may act, or the AppError (status,
 * code and French text) that the route throws. docs/architecture.md, Policies.
 */
import type { StaffRole } from '@moodmap/core';
import type { AppError } from '../errors.ts';

/** A signed-in person, as every member route knows them. */
export interface Member {
  userId: string;
}

/** A signed-in person with their role ('user' for a member), as the staff guard reads it. */
export interface Actor extends Member {
  role: StaffRole;
}

/** A policy's answer: null when allowed, else the refusal to throw. */
export type Verdict = AppError | null;

/** Throws the refusal, if any. */
export function enforce(verdict: Verdict): void {
  if (verdict) throw verdict;
}

/**
 * Whether `id` is the member's own. The session and the database write ids in lowercase; a path
 * may not (the id check accepts capitals, and PostgreSQL reads them as the same uuid).
 */
export function isSelf(member: Member, id: string | null | undefined): boolean {
  return id?.toLowerCase() === member.userId.toLowerCase();
}
