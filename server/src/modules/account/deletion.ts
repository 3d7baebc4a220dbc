/**
 * Deleting one's own account (right to erasure). One transaction removes every row that names
 * the person; what the law makes us keep stays without their identity (docs/privacy.md):
 * paid purchases move to retained_payments, moderation decisions and the security log keep a
 * pseudonym. The messages others received stay with them, sent by nobody. Files, session ends,
 * map and conversation events follow the commit (deletion-routes.ts).
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { MESSAGES } from '@moodmap/core';
import type { Db } from '../../db/client.ts';
import { DELETED_COLUMNS, toDeletedPost, type DeletedPost } from '../posts/data.ts';

/** What a deleted member is called where something of theirs is kept. */
export const ERASED_NAME = MESSAGES.account_erased_name;
/** Accounting records are kept ten years (French commercial code, art. L123-22). */
export const PAYMENT_RETENTION = sql.raw(`interval '10 years'`);

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

/** A conversation kept by the one left in it, who is told it is closed. */
export interface ClosedConversation {
  conversationId: string;
  recipientId: string;
}

export interface ErasedAccount {
  /** The person's posts, for the map's post.deleted events. */
  posts: DeletedPost[];
  /** Their files (posts, photo, uploads, images they sent, conversations gone whole), deleted after commit. */
  mediaUrls: string[];
  /** The conversations the other person keeps. */
  closedConversations: ClosedConversation[];
  /** Their sessions, whose sockets end at once. */
  sessionIds: string[];
  /** The name their kept records now carry in the security log. */
  pseudonym: string;
}

/** A raw row's text field, null when absent or empty. */
const text = (row: unknown, name: string): string | null => {
  const value = row !== null && typeof row === 'object' && name in row ? Reflect.get(row, name) : null;
  return typeof value === 'string' && value !== '' ? value : null;
};

const column = (rows: unknown[], name: string): string[] =>
  rows.flatMap((row) => {
    const value = text(row, name);
    return value ? [value] : [];
  });

/** Likes and comments on other people's posts leave with the account: their counters follow. */
async function releaseCounters(tx: Tx, userId: string): Promise<void> {
  await tx.execute(sql`
    update publications p set likes_count = p.likes_count - l.n
    from (select publication_id, count(*)::int as n from likes where user_id = ${userId} group by publication_id) l
    where p.id = l.publication_id and p.user_id <> ${userId}`);
  await tx.execute(sql`
    update publications p set comments_count = p.comments_count - c.n
    from (select publication_id, count(*)::int as n from comments where user_id = ${userId} group by publication_id) c
    where p.id = c.publication_id and p.user_id <> ${userId}`);
}

/** The person's posts, with tombstones so the map's fallback poll sees them go too. */
async function deletePosts(tx: Tx, userId: string): Promise<DeletedPost[]> {
  const deleted = await tx.execute(sql`
    with d as (delete from publications where user_id = ${userId} returning ${DELETED_COLUMNS}),
    t as (insert into post_tombstones (post_id, latitude, longitude) select id, latitude, longitude from d on conflict (post_id) do nothing)
    select * from d`);
  return deleted.rows.map(toDeletedPost);
}

/** Files the person's rows point at, besides their posts' and their messages'. */
async function otherFiles(tx: Tx, userId: string): Promise<string[]> {
  const profile = await tx.execute(
    sql`select profile_photo_url as a, avatar_url as b from profiles where id = ${userId}`,
  );
  const uploads = await tx.execute(sql`select url as a, thumbnail_url as b from uploads where user_id = ${userId}`);
  const rows = [...profile.rows, ...uploads.rows];
  return [...column(rows, 'a'), ...column(rows, 'b')];
}

/**
 * What the other person received stays theirs (their copy of a correspondence): the person's
 * side of each conversation and the sender of their messages become null ('Compte supprimé'),
 * their text stays, the images they sent go (a photo is the likeliest to show them). Gone whole,
 * with both sides' images: a conversation the other person never saw (nothing in it, or a request
 * they deleted) or whose other person is gone already. Returns the images to delete and the
 * conversations kept.
 */
async function leaveConversations(tx: Tx, userId: string): Promise<{ files: string[]; kept: ClosedConversation[] }> {
  const otherId = sql`case when c.participant1_id = ${userId} then c.participant2_id else c.participant1_id end`;
  const otherSide = sql`case when c.participant1_id = ${userId} then c.participant2_state else c.participant1_state end`;
  const dropped = await tx.execute(sql`
    with gone as (
      select c.id from conversations c
      where (c.participant1_id = ${userId} or c.participant2_id = ${userId})
        and (${otherId} is null or ${otherSide} = 'deleted' or not exists (select 1 from messages m where m.conversation_id = c.id))
    ), d as (delete from conversations where id in (select id from gone))
    select image_url as a from messages where conversation_id in (select id from gone) and image_url is not null`);
  const sent = await tx.execute(sql`
    with mine as (select id, image_url from messages where sender_id = ${userId} for update),
    u as (update messages m set sender_id = null, image_url = null from mine where m.id = mine.id)
    select image_url as a from mine where image_url is not null`);
  const kept = await tx.execute(sql`
    update conversations set participant1_id = nullif(participant1_id, ${userId}), participant2_id = nullif(participant2_id, ${userId})
    where participant1_id = ${userId} or participant2_id = ${userId}
    returning id::text as id, coalesce(participant1_id, participant2_id)::text as other`);
  return {
    files: column([...dropped.rows, ...sent.rows], 'a'),
    kept: kept.rows.flatMap((row) => {
      const conversationId = text(row, 'id');
      const recipientId = text(row, 'other');
      return conversationId && recipientId ? [{ conversationId, recipientId }] : [];
    }),
  };
}

/** Reports and decisions about their posts stay (DSA), the author's names replaced. */
async function pseudonymiseModeration(tx: Tx, userId: string): Promise<void> {
  const names = sql`jsonb_build_object('nickname', ${ERASED_NAME}::text, 'authorUsername', ${ERASED_NAME}::text)`;
  await tx.execute(
    sql`update post_reports set post_snapshot = post_snapshot || ${names} where post_author_id = ${userId}`,
  );
  await tx.execute(
    sql`update moderation_decisions set post_snapshot = post_snapshot || ${names} where author_id = ${userId}`,
  );
  // Notices they filed stay in the record; no name or address of theirs, so no decision mail.
  await tx.execute(sql`update dsa_notices set name = ${ERASED_NAME}, email = '' where notifier_id = ${userId}`);
}

/**
 * The security log stays, the person's id replaced by a pseudonym everywhere it appears. The
 * append-only trigger allows exactly this change, in this transaction only (migration 0015).
 */
async function pseudonymiseSecurityLog(tx: Tx, userId: string, pseudonym: string): Promise<void> {
  await tx.execute(sql`select set_config('moodmap.erased_account', ${userId}, true)`);
  await tx.execute(sql`
    update security_logs set
      user_id = case when user_id = ${userId} then null else user_id end,
      target_id = case when target_id = ${userId} then ${pseudonym}::uuid else target_id end,
      source_key = replace(source_key, ${userId}, ${pseudonym}),
      event_description = replace(event_description, ${userId}, ${pseudonym}),
      reason = replace(reason, ${userId}, ${pseudonym})
    where user_id = ${userId} or target_id = ${userId}
       or position(${userId} in concat_ws(' ', source_key, event_description, reason)) > 0`);
}

/** Paid purchases are accounting records: kept ten years, without the buyer. Pending ones go. */
async function retainPayments(tx: Tx, userId: string): Promise<void> {
  await tx.execute(sql`
    insert into retained_payments (id, provider, session_id, payment_intent_id, quantity, amount_cents, currency, status, created_at, paid_at, refunded_at, keep_until)
    select id, provider, session_id, payment_intent_id, quantity, amount_cents, currency, status, created_at, paid_at, refunded_at, paid_at + ${PAYMENT_RETENTION}
    from pulse_purchases where user_id = ${userId} and paid_at is not null
    on conflict (id) do nothing`);
  await tx.execute(sql`delete from retained_payments where keep_until < now()`);
}

/** Rate-limit counters keyed by the person's id or address (the SQL store's; Redis keys expire). */
async function forgetCounters(tx: Tx, userId: string, email: string): Promise<void> {
  await tx.execute(
    sql`delete from rate_limits where position(${userId} in key) > 0 or position(lower(${email}) in lower(key)) > 0`,
  );
}

/**
 * Erases the account `userId` (whose address is `email`). Everything else that names the person
 * goes with the users row through the foreign keys' cascades: profile, comments, likes,
 * blocks, reports they made, push devices, sessions, tokens, uploads, pending purchases,
 * notices, appeals, staff role.
 */
export async function eraseAccount(db: Db, userId: string, email: string): Promise<ErasedAccount> {
  const pseudonym = randomUUID();
  return db.transaction(async (tx) => {
    await tx.execute(sql`select id from users where id = ${userId} for update`);
    const sessions = await tx.execute(sql`select id::text as id from auth_sessions where user_id = ${userId}`);
    await releaseCounters(tx, userId);
    const posts = await deletePosts(tx, userId);
    const files = await otherFiles(tx, userId);
    const conversations = await leaveConversations(tx, userId);
    await pseudonymiseModeration(tx, userId);
    await pseudonymiseSecurityLog(tx, userId, pseudonym);
    await retainPayments(tx, userId);
    await forgetCounters(tx, userId, email);
    await tx.execute(sql`delete from users where id = ${userId}`);
    const mediaUrls = [...new Set([...posts.flatMap((p) => p.mediaUrls), ...files, ...conversations.files])];
    return {
      posts,
      mediaUrls,
      closedConversations: conversations.kept,
      sessionIds: column(sessions.rows, 'id'),
      pseudonym,
    };
  });
}
