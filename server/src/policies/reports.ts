/**
 * Reports and notices of illegal content (docs/product.md, Reports and moderation): anyone
 * reports someone else's post, blocked or not (a safety tool); one report per person and post is
 * the database's (a unique index), a suspended member may still report (standing.ts).
 */
import { forbidden } from '../errors.ts';
import { isSelf, type Member, type Verdict } from './actor.ts';

export function mayReport(member: Member, post: { userId: string }): Verdict {
  return isSelf(member, post.userId) ? forbidden('report_own_post') : null;
}

/** A notice of illegal content: from anyone, a visitor (null) included, but not a member about their own post. */
export function mayNotify(notifier: Member | null, post: { userId: string }): Verdict {
  return notifier ? mayReport(notifier, post) : null;
}

/**
 * A member notifying from their own confirmed address needs no mailed link: the notice counts at
 * once. `account`: the signed-in notifier's, absent for a visitor.
 */
export function notifiesAsConfirmed(
  account: { email: string; confirmedAt: Date | null } | undefined,
  email: string,
): boolean {
  return account !== undefined && account.confirmedAt !== null && account.email.toLowerCase() === email;
}
