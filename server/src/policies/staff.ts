/**
 * Which roles reach which staff tool (docs/product.md, Roles and staff). The staff guard,
 * `requireRole(ctx, request, 'moderate')` in modules/admin/access.ts, reads the caller's role and
 * asks `mayAct`; a refusal is a 403 'Accès refusé : permissions insuffisantes' and a
 * 'permission_denied' entry in the security log, worded here when a tool words its own.
 */
import {
  ADMIN_PANEL_ROLES,
  MODERATION_ROLES,
  ROLE_CHANGE_ROLES,
  type SecuritySeverity,
  type StaffRole,
} from '@moodmap/core';
import { forbidden } from '../errors.ts';
import type { Actor, Verdict } from './actor.ts';

interface StaffRule {
  roles: readonly StaffRole[];
  /** The security log's entry for a refusal; without it, a high one naming the route and role. */
  refusal?: { description: string; severity: SecuritySeverity };
}

/** The roles that manage members and the service: users list, tiers, statistics, costs. */
const MANAGERS: readonly StaffRole[] = ['super_admin', 'admin'];

export const STAFF_RULES = {
  /** The panel itself: its visit and the security log (a moderator's users list is empty: admin.ts). */
  panel: { roles: ADMIN_PANEL_ROLES },
  /** The reports queue, decisions and appeals. */
  moderate: { roles: MODERATION_ROLES },
  changeRoles: { roles: ROLE_CHANGE_ROLES },
  setTier: {
    roles: MANAGERS,
    refusal: { description: 'Changement de niveau refusé (rôle insuffisant)', severity: 'medium' },
  },
  readStats: {
    roles: MANAGERS,
    refusal: { description: 'Lecture des statistiques refusée (rôle insuffisant)', severity: 'medium' },
  },
  /** Today's costs; the same roles are told when emergency mode starts or ends. */
  readCosts: {
    roles: MANAGERS,
    refusal: { description: 'Lecture des coûts refusée (rôle insuffisant)', severity: 'medium' },
  },
  switchEmergency: {
    roles: ['super_admin'],
    refusal: { description: "Changement du mode d'urgence refusé (rôle insuffisant)", severity: 'medium' },
  },
} satisfies Record<string, StaffRule>;

export type StaffTool = keyof typeof STAFF_RULES;

/** Whether the actor's role reaches the tool: null, or the 403 the guard throws. */
export function mayAct(actor: Actor, tool: StaffTool): Verdict {
  const roles: readonly StaffRole[] = STAFF_RULES[tool].roles;
  return roles.includes(actor.role) ? null : forbidden();
}

/** How a refusal of the tool is logged, when the tool words it. */
export function refusalEntry(tool: StaffTool): StaffRule['refusal'] {
  const entry: StaffRule = STAFF_RULES[tool];
  return entry.refusal;
}
