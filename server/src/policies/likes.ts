/** Likes (docs/product.md, Likes and comments): anyone signed in likes or unlikes a live post, but not between two people when one blocked the other. */
import { isSelf, type Member, type Verdict } from './actor.ts';
import { mayMeet } from './blocks.ts';

/** Liking or unliking: `blocked` between the member and the post's author (an unlike too: the pair no longer meets). */
export function mayLike(member: Member, post: { userId: string }, blocked: boolean): Verdict {
  return isSelf(member, post.userId) ? null : mayMeet(blocked);
}
