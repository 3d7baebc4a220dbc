/**
 * Moderation (docs/moderation.md): who decides on a reported post or an appeal, and who appeals.
 * Reaching the tools at all is the staff guard's (staff.ts, 'moderate'); these rules come after.
 */
import { outranks, RESTRICTING_ACTIONS, type ModerationAction, type StaffRole } from '@moodmap/core';
import { appError, conflict, forbidden, notFound } from '../errors.ts';
import { isSelf, type Actor, type Member, type Verdict } from './actor.ts';

/** The reported post's author (null once their account is deleted) and their role. */
export interface ReportedAuthor {
  authorId: string | null;
  authorRole: StaffRole;
}

/** No one decides a case about themselves; warn, suspend and ban need a role strictly above the author's. */
export function mayDecide(actor: Actor, reported: ReportedAuthor, action: ModerationAction): Verdict {
  if (reported.authorId === null) return null;
  if (isSelf(actor, reported.authorId)) return forbidden('mod_own_case');
  if (RESTRICTING_ACTIONS.includes(action) && !outranks(actor.role, reported.authorRole))
    return forbidden('mod_rank_refused');
  return null;
}

/** The decision an appeal contests: whom it restricted and who took it. */
export interface DecisionParties {
  authorId: string | null;
  moderatorId: string | null;
}

/** An appeal is decided by another moderator than the one who decided, and never by the person it concerns. */
export function mayDecideAppeal(member: Member, appeal: { authorId: string }, decision: DecisionParties): Verdict {
  if (isSelf(member, appeal.authorId) || isSelf(member, decision.authorId)) return forbidden('mod_own_case');
  if (isSelf(member, decision.moderatorId)) return appError(403, 'mod_appeal_same_moderator');
  return null;
}

/** What an appeal needs of its decision. */
export interface AppealedDecision {
  action: string;
  reversedAt: Date | null;
  appealUntil: Date;
}

/** A second appeal of one decision (its unique index keeps it to one even under a race). */
export const appealAlready = () => conflict('appeal_already');

/**
 * Whether the decision may still be appealed at `now`: not a dismissal (nothing was restricted),
 * not reversed, within the window, and once (`appealed`: one was filed).
 */
export function appealRefusal(decision: AppealedDecision, appealed: boolean, now: Date): Verdict {
  if (decision.action === 'dismiss' || decision.reversedAt) return appError(400, 'appeal_not_allowed');
  if (now > decision.appealUntil) return conflict('appeal_expired');
  if (appealed) return appealAlready();
  return null;
}

/** Only the person a decision concerns appeals it; to anyone else it is unknown. */
export function mayAppeal(
  member: Member,
  decision: AppealedDecision & { authorId: string | null },
  appealed: boolean,
  now: Date,
): Verdict {
  if (!isSelf(member, decision.authorId)) return notFound();
  return appealRefusal(decision, appealed, now);
}

/** The notices' and the mailed link's 'you may appeal'. */
export function canAppeal(decision: AppealedDecision, appeal: object | null, now: Date): boolean {
  return appealRefusal(decision, appeal !== null, now) === null;
}
