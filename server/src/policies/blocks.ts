/**
 * Blocking (docs/product.md, Reports and moderation): when one of two people blocked the other,
 * neither meets the other any more. Reads: the other's posts, comments and profile do not exist
 * for them (the hidden set comes from modules/blocks/rule.ts, which filters lists with it).
 * Writes: no like, comment, comment edit, conversation or message between them (`mayMeet`, on a
 * fresh read of the pair: a block made on another instance a moment ago already counts).
 * Reporting stays open: it is a safety tool.
 */
import { badRequest, forbidden, notFound } from '../errors.ts';
import { isSelf, type Member, type Verdict } from './actor.ts';

/** Whether someone in `hidden` (the viewer's blocked pairs; empty for a visitor) wrote it. */
export function isHidden(hidden: ReadonlySet<string>, authorId: string): boolean {
  return hidden.has(authorId);
}

/** A thing of the other person's: unknown (404 with `code`) to someone in a blocked pair. */
export function mayReadAs(
  hidden: ReadonlySet<string>,
  authorId: string,
  code: 'post_not_found' | 'profile_not_found',
): Verdict {
  return isHidden(hidden, authorId) ? notFound(code) : null;
}

/** `blocked`: one of the two blocked the other. */
export function mayMeet(blocked: boolean): Verdict {
  return blocked ? forbidden('user_blocked_you') : null;
}

/** Whether the pair needs reading at all: nobody blocks themself. */
export function meetsSomeoneElse(member: Member, otherId: string | null | undefined): otherId is string {
  return Boolean(otherId) && !isSelf(member, otherId);
}

/** Blocking someone: anyone but oneself (whether they exist is the block's own 404). */
export function mayBlock(member: Member, targetId: string): Verdict {
  return isSelf(member, targetId) ? badRequest('block_self') : null;
}
