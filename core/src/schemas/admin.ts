/**
 * The admin panel's contract (docs/product.md, Roles and staff): the
 * visit, the users list (never an e-mail), the security log, role changes. Lists are keyset
 * pages: `cursor` is the previous page's `nextCursor`, opaque to clients.
 */
import { z } from 'zod';
import { STAFF_ROLES } from '../limits.ts';
import { MESSAGES } from '../messages.ts';
import { ADMIN_PAGE_MAX, SECURITY_SEVERITIES } from '../moderation.ts';
import { staffRoleSchema } from './auth.ts';

const cursor = z.string().max(200).optional();
const limit = z.coerce.number().int().min(1).max(ADMIN_PAGE_MAX).optional();

/**
 * What follows the rows of every list: the next page's cursor (null at the end) and the matching
 * rows, counted up to ADMIN_COUNT_MAX + 1 (shown 'N+') on the first page only (null after).
 */
const pageEnd = {
  nextCursor: z.string().nullable(),
  total: z.number().nullable(),
};

/** `POST /api/admin/visit`: logs 'admin_access' (staff) or 'permission_denied' (403). */
export const adminVisitResponseSchema = z.object({ role: staffRoleSchema });

export const adminUsersQuerySchema = z.object({
  cursor,
  limit,
  /** A nickname prefix, case-insensitive. */
  q: z.string().trim().max(50).optional(),
});

/** A users-list row: no e-mail (the panel shows 'Confidentiel'). */
export const adminUserSchema = z.object({
  id: z.string(),
  username: z.string(),
  createdAt: z.string(),
  role: staffRoleSchema,
  suspendedUntil: z.string().nullable(),
  banned: z.boolean(),
});
export type AdminUser = z.infer<typeof adminUserSchema>;

export const adminUsersResponseSchema = z.object({
  users: z.array(adminUserSchema),
  /** `total` is the tab's count (a moderator: 0). */
  ...pageEnd,
});
export type AdminUsersResponse = z.infer<typeof adminUsersResponseSchema>;

export const securityLogsQuerySchema = z.object({
  cursor,
  limit,
  severity: z.enum(SECURITY_SEVERITIES).optional(),
  eventType: z.string().trim().min(1).max(100).optional(),
});

/** A security log entry (event, severity, time), plus the actor, target and reason of staff actions. */
export const securityLogSchema = z.object({
  id: z.string(),
  eventType: z.string(),
  eventDescription: z.string(),
  severity: z.string(),
  createdAt: z.string(),
  userId: z.string().nullable(),
  targetId: z.string().nullable(),
  reason: z.string().nullable(),
  /** Repeats of the event from the same source within its window, this one included, and the last one's time. */
  occurrences: z.number().int(),
  lastAt: z.string().nullable(),
});
export type SecurityLogEntry = z.infer<typeof securityLogSchema>;

export const securityLogsResponseSchema = z.object({
  logs: z.array(securityLogSchema),
  ...pageEnd,
});
export type SecurityLogsResponse = z.infer<typeof securityLogsResponseSchema>;

/** `PUT /api/admin/users/:id/role` (super_admin only). */
export const setRoleBodySchema = z.object({ role: z.enum(STAFF_ROLES, { error: MESSAGES.bad_request }) });
export const setRoleResponseSchema = z.object({ userId: z.string(), role: staffRoleSchema });

/** `POST /dev/role` (development only, like the dev outbox): a role for a journey's account. */
export const devRoleBodySchema = z.object({ email: z.string().trim().min(3).max(254), role: staffRoleSchema });
