/** Posts (docs/product.md, Posts): one active post per person, deleted by its author only. */
import { appError, conflict } from '../errors.ts';
import { isSelf, type Member, type Verdict } from './actor.ts';
import { mayReadAs } from './blocks.ts';

/**
 * A new post while the author has a live one is refused until they delete it or it expires.
 * `hasLivePost` is read under the author's lock, so simultaneous attempts see each other.
 */
export function mayPublish(author: { hasLivePost: boolean }): Verdict {
  return author.hasLivePost ? conflict('post_active_exists') : null;
}

/** Only its author deletes a post; staff remove posts through moderation decisions. */
export function mayDeletePost(member: Member, post: { userId: string }): Verdict {
  return isSelf(member, post.userId) ? null : appError(403, 'post_delete_impossible');
}

/** Anyone reads a live post but someone in a blocked pair with its author, to whom it is unknown. */
export function mayReadPost(hidden: ReadonlySet<string>, post: { userId: string }): Verdict {
  return mayReadAs(hidden, post.userId, 'post_not_found');
}
