/**
 * Moderation rules (docs/moderation.md): the decisions a moderator takes on a reported post,
 * the reasons they choose from, suspension lengths, the hide threshold and the appeal window.
 * Shared by the server (which enforces them) and the web app (which lists them).
 */
import { MESSAGES, type MessageKey } from './messages.ts';
import { STAFF_ROLES, type StaffRole } from './limits.ts';

export const MODERATION_ACTIONS = ['dismiss', 'remove', 'warn', 'suspend', 'ban'] as const;
export type ModerationAction = (typeof MODERATION_ACTIONS)[number];

export const SUSPENSION_DAYS = [1, 7, 30] as const;
export type SuspensionDays = (typeof SUSPENSION_DAYS)[number];

export const MODERATION_REASON_KEYS = [
  'spam',
  'harassment',
  'hate',
  'violence',
  'sexual',
  'illegal',
  'misinformation',
  'privacy',
  'no_violation',
  'other',
] as const;
export type ModerationReasonKey = (typeof MODERATION_REASON_KEYS)[number];

/** Distinct reporters after whom a post leaves the map pending review (MODERATION_HIDE_THRESHOLD overrides it). */
export const MODERATION_HIDE_THRESHOLD_DEFAULT = 3;
/**
 * Who counts toward that threshold: a confirmed account at least this old, and one per network
 * (IPv4 /24, IPv6 /48), so that accounts made in a minute from one address cannot hide a post.
 */
export const REPORT_COUNTS_AFTER_HOURS = 24;
/** The decisions that restrict their author: only a staff member of a strictly higher role takes them. */
export const RESTRICTING_ACTIONS: readonly ModerationAction[] = ['warn', 'suspend', 'ban'];
/** The author may appeal once within 6 months of the statement of reasons (DSA Art. 20). */
export const APPEAL_WINDOW_DAYS = 183;
/** An appeal stays open until another moderator upholds or reverses the decision. */
export const APPEAL_STATUSES = ['open', 'upheld', 'reversed'] as const;
/** In-app notices: a reporter's outcome, an author's statement of reasons, an appeal's outcome. */
export const MODERATION_NOTICE_KINDS = ['report_outcome', 'statement', 'appeal_outcome'] as const;
export const MODERATION_NOTE_MAX = 1000;
export const APPEAL_STATEMENT_MAX = 2000;
/** Admin lists: rows per page, and the most a caller may ask for. */
export const ADMIN_PAGE_SIZE = 50;
export const ADMIN_PAGE_MAX = 200;
/**
 * Tab counts are exact up to this many rows, then shown as 'N+': an exact count of a million
 * log rows costs a scan of them all, a bounded one stops early.
 */
export const ADMIN_COUNT_MAX = 10_000;

/** '42', or '10 000+' past ADMIN_COUNT_MAX. */
export function adminCount(total: number): string {
  return total > ADMIN_COUNT_MAX
    ? `${ADMIN_COUNT_MAX.toLocaleString('fr-FR').replace(/\u202f/g, ' ')}+`
    : String(total);
}

/** Who may do what in the panel (docs/product.md, Roles and staff). */
export const MODERATION_ROLES: readonly StaffRole[] = ['super_admin', 'admin', 'moderator'];
export const USERS_LIST_ROLES: readonly StaffRole[] = ['super_admin', 'admin'];
export const ROLE_CHANGE_ROLES: readonly StaffRole[] = ['super_admin'];

/** True when `actor`'s role is strictly above `target`'s (STAFF_ROLES runs from highest to lowest). */
export function outranks(actor: StaffRole, target: StaffRole): boolean {
  return STAFF_ROLES.indexOf(actor) < STAFF_ROLES.indexOf(target);
}

export const SECURITY_SEVERITIES = ['low', 'medium', 'high', 'critical'] as const;
export type SecuritySeverity = (typeof SECURITY_SEVERITIES)[number];

export function moderationActionLabel(action: ModerationAction): string {
  return MESSAGES[`mod_action_${action}` satisfies MessageKey];
}

export function moderationReasonLabel(key: ModerationReasonKey): string {
  return MESSAGES[`mod_reason_${key}` satisfies MessageKey];
}

/** A security log event's label: its type with the first underscore replaced by a space, uppercased. */
export function eventTypeLabel(eventType: string): string {
  return eventType.replace('_', ' ').toUpperCase();
}
