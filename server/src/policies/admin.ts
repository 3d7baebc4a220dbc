/** The admin panel (docs/product.md, Roles and staff), beyond reaching it (staff.ts). */
import { outranks, USERS_LIST_ROLES, type StaffRole } from '@moodmap/core';
import { badRequest, forbidden } from '../errors.ts';
import { isSelf, type Actor, type Verdict } from './actor.ts';

/** The users list shows members to admins and super_admins; a moderator gets it empty. */
export function seesUserList(actor: Actor): boolean {
  return USERS_LIST_ROLES.includes(actor.role);
}

/**
 * A role changes only over a strictly lower one, never one's own: the last super_admin cannot
 * lock everyone out by demoting themself, and another super_admin is the command line's.
 */
export function mayChangeRole(actor: Actor, target: { id: string; role: StaffRole }): Verdict {
  if (isSelf(actor, target.id)) return badRequest('admin_role_self');
  if (!outranks(actor.role, target.role)) return forbidden('admin_role_rank');
  return null;
}
