/**
 * Reads everything the archive holds about one member, one file per kind (export-tables.ts
 * names the columns each reads). Another member appears only by id and nickname, never by
 * e-mail or any private field; the person's own conversations carry both sides.
 */
import { asc, eq, inArray, or } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import {
  authSessions,
  comments,
  conversations,
  dsaNotices,
  likes,
  messages,
  moderationAppeals,
  moderationDecisions,
  moderationNotices,
  postReports,
  profiles,
  publications,
  pulsePurchases,
  pushSubscriptions,
  securityLogs,
  staffRoles,
  userBlocks,
  users,
} from '../../db/schema.ts';
import { ERASED_NAME } from './deletion.ts';
import type { ArchiveFile } from './export-tables.ts';

export type ArchiveData = Record<ArchiveFile, unknown>;

export interface CollectedData {
  files: ArchiveData;
  /** URLs of the person's own media (post images and voice, profile photo, images they sent). */
  mediaUrls: string[];
}

async function account(db: Db, userId: string) {
  const [user] = await db
    .select({
      id: users.id,
      email: users.email,
      emailConfirmedAt: users.emailConfirmedAt,
      metadata: users.metadata,
      termsVersion: users.termsVersion,
      termsAcceptedAt: users.termsAcceptedAt,
      createdAt: users.createdAt,
      updatedAt: users.updatedAt,
      suspendedUntil: users.suspendedUntil,
      bannedAt: users.bannedAt,
    })
    .from(users)
    .where(eq(users.id, userId));
  const [profile] = await db.select().from(profiles).where(eq(profiles.id, userId));
  const [staff] = await db.select({ role: staffRoles.role }).from(staffRoles).where(eq(staffRoles.userId, userId));
  if (!user) throw new Error('member gone before the archive was made');
  const { termsVersion, termsAcceptedAt, ...rest } = user;
  return {
    account: rest,
    profile: profile ?? null,
    role: staff?.role ?? 'user',
    terms: { termsVersion, termsAcceptedAt },
  };
}

async function posts(db: Db, userId: string) {
  const rows = await db
    .select()
    .from(publications)
    .where(eq(publications.userId, userId))
    .orderBy(asc(publications.createdAt));
  // The marker is a copy of the other columns, made for the map.
  return rows.map(({ markerJson: _marker, ...post }) => post);
}

/**
 * Each conversation with the other member's id and nickname, and every message of both sides. A
 * deleted other member is 'Compte supprimé' with no id; their messages have no sender.
 */
async function conversationsOf(db: Db, userId: string) {
  const rows = await db
    .select({
      id: conversations.id,
      participant1Id: conversations.participant1Id,
      participant2Id: conversations.participant2Id,
      createdAt: conversations.createdAt,
    })
    .from(conversations)
    .where(or(eq(conversations.participant1Id, userId), eq(conversations.participant2Id, userId)))
    .orderBy(asc(conversations.createdAt));
  if (rows.length === 0) return [];
  const otherIds = rows.map((c) => (c.participant1Id === userId ? c.participant2Id : c.participant1Id));
  const present = otherIds.filter((id): id is string => id !== null);
  const names = new Map(
    present.length === 0
      ? []
      : (
          await db
            .select({ id: profiles.id, username: profiles.username })
            .from(profiles)
            .where(inArray(profiles.id, present))
        ).map((p) => [p.id, p.username]),
  );
  const withWhom = (id: string | null) =>
    id === null ? { id: null, username: ERASED_NAME } : { id, username: names.get(id) ?? null };
  const all = await db
    .select({
      id: messages.id,
      conversationId: messages.conversationId,
      senderId: messages.senderId,
      content: messages.content,
      imageUrl: messages.imageUrl,
      read: messages.read,
      createdAt: messages.createdAt,
    })
    .from(messages)
    .where(
      inArray(
        messages.conversationId,
        rows.map((c) => c.id),
      ),
    )
    .orderBy(asc(messages.createdAt));
  return rows.map((c, i) => ({
    id: c.id,
    createdAt: c.createdAt,
    with: withWhom(otherIds[i] ?? null),
    messages: all
      .filter((m) => m.conversationId === c.id)
      .map(({ conversationId: _c, ...m }) => ({ ...m, fromMe: m.senderId === userId })),
  }));
}

async function moderation(db: Db, userId: string) {
  const decisions = await db
    .select({
      id: moderationDecisions.id,
      postId: moderationDecisions.postId,
      action: moderationDecisions.action,
      suspendDays: moderationDecisions.suspendDays,
      reasonKey: moderationDecisions.reasonKey,
      note: moderationDecisions.note,
      postSnapshot: moderationDecisions.postSnapshot,
      createdAt: moderationDecisions.createdAt,
      appealUntil: moderationDecisions.appealUntil,
      reversedAt: moderationDecisions.reversedAt,
    })
    .from(moderationDecisions)
    .where(eq(moderationDecisions.authorId, userId))
    .orderBy(asc(moderationDecisions.createdAt));
  const appeals = await db
    .select({
      id: moderationAppeals.id,
      decisionId: moderationAppeals.decisionId,
      statement: moderationAppeals.statement,
      status: moderationAppeals.status,
      createdAt: moderationAppeals.createdAt,
      decidedAt: moderationAppeals.decidedAt,
      note: moderationAppeals.note,
    })
    .from(moderationAppeals)
    .where(eq(moderationAppeals.authorId, userId))
    .orderBy(asc(moderationAppeals.createdAt));
  return { decisions, appeals };
}

const reportsBy = (db: Db, userId: string) =>
  db
    .select({
      id: postReports.id,
      postId: postReports.postId,
      reasonKey: postReports.reasonKey,
      reason: postReports.reason,
      description: postReports.description,
      postSnapshot: postReports.postSnapshot,
      status: postReports.status,
      createdAt: postReports.createdAt,
    })
    .from(postReports)
    .where(eq(postReports.reportedBy, userId))
    .orderBy(asc(postReports.createdAt));

const purchasesOf = (db: Db, userId: string) =>
  db
    .select({
      id: pulsePurchases.id,
      provider: pulsePurchases.provider,
      quantity: pulsePurchases.quantity,
      amountCents: pulsePurchases.amountCents,
      currency: pulsePurchases.currency,
      status: pulsePurchases.status,
      createdAt: pulsePurchases.createdAt,
      paidAt: pulsePurchases.paidAt,
      refundedAt: pulsePurchases.refundedAt,
      creditsRemoved: pulsePurchases.creditsRemoved,
      creditsSpent: pulsePurchases.creditsSpent,
    })
    .from(pulsePurchases)
    .where(eq(pulsePurchases.userId, userId))
    .orderBy(asc(pulsePurchases.createdAt));

/** Events about the person's account; the address and source key of a grouped row are left out. */
const securityEventsOf = (db: Db, userId: string) =>
  db
    .select({
      eventType: securityLogs.eventType,
      description: securityLogs.eventDescription,
      severity: securityLogs.severity,
      createdAt: securityLogs.createdAt,
      occurrences: securityLogs.occurrences,
      lastAt: securityLogs.lastAt,
    })
    .from(securityLogs)
    .where(eq(securityLogs.userId, userId))
    .orderBy(asc(securityLogs.createdAt));

/** The person's comments. */
const commentsOf = (db: Db, userId: string) =>
  db
    .select({
      id: comments.id,
      publicationId: comments.publicationId,
      content: comments.content,
      createdAt: comments.createdAt,
      updatedAt: comments.updatedAt,
      isEdited: comments.isEdited,
    })
    .from(comments)
    .where(eq(comments.userId, userId))
    .orderBy(asc(comments.createdAt));

/** The posts the person liked. */
const likesOf = (db: Db, userId: string) =>
  db
    .select({ publicationId: likes.publicationId, createdAt: likes.createdAt })
    .from(likes)
    .where(eq(likes.userId, userId))
    .orderBy(asc(likes.createdAt));

/** The illegal-content notices the person filed while signed in. */
const illegalContentNoticesBy = (db: Db, userId: string) =>
  db
    .select({
      id: dsaNotices.id,
      postId: dsaNotices.postId,
      name: dsaNotices.name,
      email: dsaNotices.email,
      explanation: dsaNotices.explanation,
      location: dsaNotices.location,
      postSnapshot: dsaNotices.postSnapshot,
      createdAt: dsaNotices.createdAt,
      confirmedAt: dsaNotices.confirmedAt,
    })
    .from(dsaNotices)
    .where(eq(dsaNotices.notifierId, userId))
    .orderBy(asc(dsaNotices.createdAt));

/** The moderation notices the person was sent. */
const moderationNoticesOf = (db: Db, userId: string) =>
  db
    .select({
      id: moderationNotices.id,
      kind: moderationNotices.kind,
      decisionId: moderationNotices.decisionId,
      createdAt: moderationNotices.createdAt,
      readAt: moderationNotices.readAt,
    })
    .from(moderationNotices)
    .where(eq(moderationNotices.userId, userId))
    .orderBy(asc(moderationNotices.createdAt));

/** The devices the person gets notifications on. */
const pushDevicesOf = (db: Db, userId: string) =>
  db
    .select({
      id: pushSubscriptions.id,
      endpoint: pushSubscriptions.endpoint,
      label: pushSubscriptions.label,
      preview: pushSubscriptions.preview,
      createdAt: pushSubscriptions.createdAt,
    })
    .from(pushSubscriptions)
    .where(eq(pushSubscriptions.userId, userId))
    .orderBy(asc(pushSubscriptions.createdAt));

/** The people the person blocked. */
const blocksBy = (db: Db, userId: string) =>
  db
    .select({ blockedId: userBlocks.blockedId, createdAt: userBlocks.createdAt })
    .from(userBlocks)
    .where(eq(userBlocks.blockerId, userId))
    .orderBy(asc(userBlocks.createdAt));

/** The person's sessions. */
const sessionsOf = (db: Db, userId: string) =>
  db
    .select({
      id: authSessions.id,
      kind: authSessions.kind,
      createdAt: authSessions.createdAt,
      revokedAt: authSessions.revokedAt,
    })
    .from(authSessions)
    .where(eq(authSessions.userId, userId))
    .orderBy(asc(authSessions.createdAt));

export async function collectMemberData(db: Db, userId: string): Promise<CollectedData> {
  const profile = await account(db, userId);
  const postRows = await posts(db, userId);
  const conversationRows = await conversationsOf(db, userId);
  const files: ArchiveData = {
    'profil.json': { account: profile.account, profile: profile.profile, role: profile.role },
    'consentements.json': { termsOfUse: profile.terms },
    'publications.json': postRows,
    'commentaires.json': await commentsOf(db, userId),
    'likes.json': await likesOf(db, userId),
    'messages.json': conversationRows,
    'signalements.json': await reportsBy(db, userId),
    'notifications-contenus-illicites.json': await illegalContentNoticesBy(db, userId),
    'achats.json': await purchasesOf(db, userId),
    'moderation.json': await moderation(db, userId),
    'avis.json': await moderationNoticesOf(db, userId),
    'appareils-notifications.json': await pushDevicesOf(db, userId),
    'blocages.json': await blocksBy(db, userId),
    'sessions.json': await sessionsOf(db, userId),
    'journal-securite.json': await securityEventsOf(db, userId),
  };
  const sentImages = conversationRows.flatMap((c) => c.messages.filter((m) => m.fromMe).map((m) => m.imageUrl));
  const mediaUrls = [
    profile.profile?.profilePhotoUrl,
    profile.profile?.avatarUrl,
    ...postRows.flatMap((p) => [p.imageUrl, p.thumbnailUrl, p.audioUrl, ...p.mediaUrls]),
    ...sentImages,
  ].filter((url): url is string => typeof url === 'string' && url.length > 0);
  return { files, mediaUrls: [...new Set(mediaUrls)] };
}
