/**
 * Comments (docs/product.md, Likes and comments): anyone signed in comments on a live post, but
 * not between two people when one blocked the other; only its author edits or deletes a comment.
 */
import { forbidden } from '../errors.ts';
import { isSelf, type Member, type Verdict } from './actor.ts';
import { mayMeet } from './blocks.ts';

/** Writing on a post (a new comment, or editing one's own): `blocked` between the writer and the post's author. */
export function mayComment(member: Member, post: { userId: string }, blocked: boolean): Verdict {
  return isSelf(member, post.userId) ? null : mayMeet(blocked);
}

/** Only its author edits a comment (mayComment still applies to the post it is on). */
export function mayEditComment(member: Member, comment: { userId: string }): Verdict {
  return isSelf(member, comment.userId) ? null : forbidden();
}

/** Only its author deletes a comment, whatever the blocks since: people may always take back what they wrote. */
export function mayDeleteComment(member: Member, comment: { userId: string }): Verdict {
  return mayEditComment(member, comment);
}
