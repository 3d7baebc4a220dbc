/**
 * Messages (docs/product.md, Messages). A conversation exists only for its two participants:
 * every read of one is scoped to the caller in its query (modules/messages/service.ts), so to
 * anyone else it is unknown (404). Who may write in it is decided here, in two forms of one rule:
 * `maySend` explains a refusal, `sendAllowedSql` is the same rule inside the send's statement.
 */
import { sql, type SQL } from 'drizzle-orm';
import { appError, badRequest, notFound } from '../errors.ts';
import { isSelf, type Member, type Verdict } from './actor.ts';
import { mayMeet } from './blocks.ts';
import { writeAllowedSql } from './standing.ts';

/** A conversation's two people; null for one who deleted their account. */
export interface Participants {
  participant1Id: string | null;
  participant2Id: string | null;
}

/**
 * Opening (or reopening) the conversation with `otherId`: not with oneself (compared without
 * case: the body's id may come in capitals), not in a blocked pair.
 */
export function mayOpenConversation(member: Member, otherId: string, blocked: boolean): Verdict {
  if (member.userId.toLowerCase() === otherId.toLowerCase()) return badRequest('conversation_self');
  return mayMeet(blocked);
}

/** Nobody writes in a conversation whose other person deleted their account. */
export function mayWriteIn(conversation: Participants): Verdict {
  return conversation.participant1Id === null || conversation.participant2Id === null
    ? appError(403, 'conversation_closed')
    : null;
}

/** A message: by one of the two participants, in a conversation still open, not in a blocked pair (`blocked`). */
export function maySend(member: Member, conversation: Participants, blocked: boolean): Verdict {
  if (!isSelf(member, conversation.participant1Id) && !isSelf(member, conversation.participant2Id))
    return notFound('conversation_not_found');
  return mayWriteIn(conversation) ?? mayMeet(blocked);
}

/**
 * maySend inside the send statement, row by row, with the write policy's 'send' rule: the sender
 * is one of the two participants, both are still there, neither blocked the other, and the
 * sender's standing allows a message. The statement names the conversation row `conv`;
 * `sender`, `now` and `termsVersion` are the row's.
 */
export function sendAllowedSql(sender: SQL, now: SQL, termsVersion: SQL): SQL {
  return sql`${sender} in (conv.participant1_id, conv.participant2_id)
        and conv.participant1_id is not null and conv.participant2_id is not null
        and ${writeAllowedSql('send', sender, now, termsVersion)}
        and not exists (select 1 from user_blocks b
          where (b.blocker_id = conv.participant1_id and b.blocked_id = conv.participant2_id)
             or (b.blocker_id = conv.participant2_id and b.blocked_id = conv.participant1_id))`;
}
