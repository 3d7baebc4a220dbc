/**
 * The database schema for every entity of the product, with the constraints the rules rely on.
 * One source for Drizzle queries and for the generated SQL migrations (drizzle-kit generate).
 * Times are timestamptz in UTC; the 24 h window is always computed by the database clock.
 */
import { sql, type SQL } from 'drizzle-orm';
import {
  APPEAL_STATUSES,
  CLIENT_ANALYTICS_EVENTS,
  DATA_EXPORT_STATUSES,
  MODERATION_ACTIONS,
  MODERATION_NOTICE_KINDS,
  MOODS,
  PURCHASE_STATUSES,
  REPORT_REASON_KEYS,
  SECURITY_SEVERITIES,
  SERVER_ANALYTICS_EVENTS,
  STAFF_ROLES,
  type Mood,
  type PurchaseStatus,
} from '@moodmap/core';
import {
  boolean,
  check,
  customType,
  date,
  doublePrecision,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  pgView,
  primaryKey,
  real,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
  type AnyPgColumn,
} from 'drizzle-orm/pg-core';

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

/**
 * `column in ('a', 'b')` from a list, most of them core's enums: a value added there changes the
 * CHECK here, so drizzle-kit writes its migration (test/system/check-lists pins the two together).
 */
function inList(column: AnyPgColumn, values: readonly string[]): SQL {
  return sql`${column} in (${sql.raw(values.map((v) => `'${v.replaceAll("'", "''")}'`).join(', '))})`;
}

const PAYMENT_PROVIDERS = ['dev', 'stripe'] as const;

/** Credentials live apart from the public profile so no profile read can leak them. */
export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
    emailConfirmedAt: timestamp('email_confirmed_at', { withTimezone: true }),
    /** Sign-up metadata (first_name, last_name, nickname), like hosted auth services keep it. */
    metadata: jsonb('metadata').$type<Record<string, string>>().notNull().default({}),
    /** The terms of use accepted: their version and when; null for accounts from before. */
    termsVersion: text('terms_version'),
    termsAcceptedAt: timestamp('terms_accepted_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    /** A moderator's suspension: no post, comment or message before this time. */
    suspendedUntil: timestamp('suspended_until', { withTimezone: true }),
    /** A moderator's ban: no sign-in, no writing. */
    bannedAt: timestamp('banned_at', { withTimezone: true }),
  },
  (table) => [
    uniqueIndex('users_email_lower_key').on(sql`lower(${table.email})`),
    check('users_email_length', sql`char_length(${table.email}) <= 254`),
  ],
);

/** Staff roles (docs/product.md, Roles and staff). A user without a row is a plain 'user'. */
export const staffRoles = pgTable(
  'staff_roles',
  {
    userId: uuid('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    role: text('role').notNull(),
    grantedAt: createdAt(),
  },
  (table) => [check('staff_roles_role', inList(table.role, STAFF_ROLES))],
);

/** Single-use e-mail tokens (confirmation, recovery), stored as SHA-256 hashes. */
export const authTokens = pgTable(
  'auth_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    tokenHash: text('token_hash').notNull().unique(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (table) => [
    check('auth_tokens_kind', inList(table.kind, ['confirm', 'recovery'])),
    index('auth_tokens_user_idx').on(table.userId, table.kind),
  ],
);

/**
 * One sign-in, i.e. one refresh-token family. Access tokens carry its id (`sid`) and every
 * authenticated request checks `revoked_at` here (one primary-key lookup), so signing out, a
 * password change or a detected token reuse ends the session at once, not 15 minutes later.
 */
export const authSessions = pgTable(
  'auth_sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** How it began: password sign-in, confirmation link, or recovery link. */
    kind: text('kind').notNull(),
    createdAt: createdAt(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (table) => [
    check('auth_sessions_kind', inList(table.kind, ['password', 'signup', 'recovery'])),
    index('auth_sessions_user_idx').on(table.userId),
  ],
);

/**
 * Rotating refresh tokens of a session (the family). Each is exchanged once; a rotated token
 * presented again after the grace window revokes the whole session (see modules/auth/sessions.ts).
 */
export const refreshTokens = pgTable(
  'refresh_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    familyId: uuid('family_id')
      .notNull()
      .references(() => authSessions.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull().unique(),
    /** Set when this token was exchanged for `replacedBy`; reuse after the grace window revokes the family. */
    rotatedAt: timestamp('rotated_at', { withTimezone: true }),
    replacedBy: uuid('replaced_by'),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: createdAt(),
  },
  (table) => [index('refresh_tokens_family_idx').on(table.familyId), index('refresh_tokens_user_idx').on(table.userId)],
);

/** Public profile. Private columns are never selected by public reads. */
export const profiles = pgTable(
  'profiles',
  {
    id: uuid('id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    username: text('username').notNull(),
    bio: text('bio'),
    profilePhotoUrl: text('profile_photo_url'),
    avatarUrl: text('avatar_url'),
    firstName: text('first_name'),
    lastName: text('last_name'),
    dateOfBirth: date('date_of_birth'),
    phoneNumber: text('phone_number'),
    createdAt: createdAt(),
    isPremium: boolean('is_premium').notNull().default(false),
    isPro: boolean('is_pro').notNull().default(false),
    isMulti: boolean('is_multi').notNull().default(false),
    isPlus: boolean('is_plus').notNull().default(false),
    usernameChangesCount: integer('username_changes_count').notNull().default(0),
    lastUsernameChange: timestamp('last_username_change', { withTimezone: true }),
    pulseCredits: integer('pulse_credits').notNull().default(0),
  },
  (table) => [
    check('profiles_username_length', sql`char_length(${table.username}) between 1 and 50`),
    check('profiles_bio_length', sql`${table.bio} is null or char_length(${table.bio}) <= 500`),
    check('profiles_pulse_credits', sql`${table.pulseCredits} >= 0`),
    // The admin users list: keyset pages newest first, and a nickname prefix search.
    index('profiles_created_id_idx').on(table.createdAt.desc(), table.id.desc()),
    index('profiles_username_prefix_idx').on(sql`lower(${table.username}) text_pattern_ops`),
  ],
);

/** A 24-hour post pinned on land. */
export const publications = pgTable(
  'publications',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => profiles.id, { onDelete: 'cascade' }),
    category: text('category').$type<Mood>().notNull(),
    content: text('content').notNull().default(''),
    latitude: doublePrecision('latitude').notNull(),
    longitude: doublePrecision('longitude').notNull(),
    nickname: text('nickname').notNull(),
    createdAt: createdAt(),
    imageUrl: text('image_url'),
    thumbnailUrl: text('thumbnail_url'),
    mediaUrls: jsonb('media_urls').$type<string[]>().notNull().default([]),
    audioUrl: text('audio_url'),
    audioDuration: real('audio_duration'),
    hasPulseEffect: boolean('has_pulse_effect').notNull().default(false),
    commentsCount: integer('comments_count').notNull().default(0),
    likesCount: integer('likes_count').notNull().default(0),
    /**
     * The author's current photo, stored with the post so the map's markers need no join with
     * profiles: set at insert, rewritten in the transaction that changes the photo
     * (profiles/service.ts replacePhoto).
     */
    authorPhotoUrl: text('author_photo_url'),
    /**
     * Off the map for everyone: 'pending' once MODERATION_HIDE_THRESHOLD people reported
     * it, 'removed' by a moderator's decision. Migration 0007 keeps post_cells and the partial
     * marker index in step with it.
     */
    hiddenState: text('hidden_state'),
    /**
     * 'Position approximative': `latitude`/`longitude` above hold the published point,
     * snapped to a ~1 km cell (moved onto land when needed), so every reader (viewport, cells,
     * search, profile, realtime) can only ever see that one. The exact point is kept here for the
     * land check's record and moderation, and never leaves the server except to staff.
     * Both null for a post published at its exact position.
     */
    exactLatitude: doublePrecision('exact_latitude'),
    exactLongitude: doublePrecision('exact_longitude'),
    /**
     * The post's map marker (core's markerSchema) as JSON text, written by PostgreSQL whenever the
     * row is (a stored generated column: a photo change rewriting author_photo_url rewrites it
     * too). The viewport answer is these texts joined, read index-only from publications_marker_idx,
     * instead of a JSON built per row on every read (migration 0010).
     */
    markerJson: text('marker_json').generatedAlwaysAs(
      sql`post_marker_json(id, user_id, category, latitude, longitude, nickname, author_photo_url, has_pulse_effect, created_at)`,
    ),
  },
  (table) => [
    check(
      'publications_hidden_state',
      sql`${table.hiddenState} is null or ${inList(table.hiddenState, ['pending', 'removed'])}`,
    ),
    check('publications_category', inList(table.category, MOODS)),
    check('publications_latitude', sql`${table.latitude} between -90 and 90`),
    check('publications_longitude', sql`${table.longitude} between -180 and 180`),
    check('publications_content_length', sql`char_length(${table.content}) <= 1000`),
    check(
      'publications_audio_duration',
      sql`${table.audioDuration} is null or (${table.audioDuration} > 0 and ${table.audioDuration} <= 60)`,
    ),
    check('publications_counts', sql`${table.likesCount} >= 0 and ${table.commentsCount} >= 0`),
    // The feed: live posts newest first; a user's posts newest first.
    index('publications_created_at_idx').on(table.createdAt.desc()),
    index('publications_user_created_idx').on(table.userId, table.createdAt.desc()),
    // The map's points (posts/feed.ts) read `publications_marker_idx` (band of 1/32° of latitude,
    // longitude, latitude) INCLUDE (created_at, category, marker_json), partial on hidden_state is
    // null: an index-only range scan per band the view crosses. Drizzle cannot declare INCLUDE, so
    // it is created by migrations 0010_marker_json.sql and 0011_marker_bands.sql.
  ],
);

/**
 * Live-post counts per web-mercator grid cell (60 px cells at grid zooms 0–8, CELL_ZOOM_MAX) and
 * mood, with coordinate sums for the cluster's centre: the zoomed-out map reads these rows
 * (bounded by the cells of the view) instead of aggregating publications.
 * Kept by statement-level triggers on publications (migration 0004): every insert and delete,
 * whatever the path (create, owner delete, sweeper, account deletion cascade), in the same
 * transaction. Expired posts leave when the sweeper deletes them (every POST_SWEEP_EVERY_MS).
 * Sums are numeric, so adding then removing a post restores them exactly and a cell of one
 * post holds that post's exact position.
 */
export const postCells = pgTable(
  'post_cells',
  {
    zoom: smallint('zoom').notNull(),
    cx: integer('cx').notNull(),
    cy: integer('cy').notNull(),
    category: text('category').notNull(),
    n: integer('n').notNull(),
    sumLat: numeric('sum_lat', { mode: 'number' }).notNull(),
    sumLon: numeric('sum_lon', { mode: 'number' }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.zoom, table.cx, table.cy, table.category] })],
);

/**
 * Ids of deleted or swept posts, so the fallback poll can tell clients what left the map since
 * their cursor (posts/feed.ts). Pruned by the sweeper after 25 hours: cursors live 24.
 */
export const postTombstones = pgTable(
  'post_tombstones',
  {
    postId: uuid('post_id').primaryKey(),
    deletedAt: timestamp('deleted_at', { withTimezone: true }).notNull().defaultNow(),
    /**
     * Where the post was (its published point), so the poll sends a viewer only the deletions in
     * its view. Null for rows written before migration 0008: those go to every viewer.
     */
    latitude: doublePrecision('latitude'),
    longitude: doublePrecision('longitude'),
  },
  (table) => [index('post_tombstones_deleted_at_idx').on(table.deletedAt)],
);

/**
 * One Web Push subscription per device: the browser's PushSubscription, removable by
 * its owner from the profile, dropped when the push service answers 404/410.
 */
export const pushSubscriptions = pgTable(
  'push_subscriptions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => profiles.id, { onDelete: 'cascade' }),
    endpoint: text('endpoint').notNull().unique(),
    p256dh: text('p256dh').notNull(),
    auth: text('auth').notNull(),
    /** A short device label shown in the profile's list (from the user agent). */
    label: text('label').notNull().default(''),
    /** Whether this device's notifications carry a short preview of the text (off: names only). */
    preview: boolean('preview').notNull().default(true),
    createdAt: createdAt(),
  },
  (table) => [index('push_subscriptions_user_idx').on(table.userId)],
);

/** One like per user and post. */
export const likes = pgTable(
  'likes',
  {
    publicationId: uuid('publication_id')
      .notNull()
      .references(() => publications.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => profiles.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (table) => [primaryKey({ columns: [table.publicationId, table.userId] }), index('likes_user_idx').on(table.userId)],
);

export const comments = pgTable(
  'comments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    publicationId: uuid('publication_id')
      .notNull()
      .references(() => publications.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => profiles.id, { onDelete: 'cascade' }),
    content: text('content').notNull(),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    isEdited: boolean('is_edited').notNull().default(false),
  },
  (table) => [
    check('comments_content_length', sql`char_length(${table.content}) between 1 and 1000`),
    index('comments_publication_created_idx').on(table.publicationId, table.createdAt),
  ],
);

/** Comments joined with their author (view comments_with_profiles). */
export const commentsWithProfiles = pgView('comments_with_profiles').as((qb) =>
  qb
    .select({
      id: comments.id,
      publicationId: comments.publicationId,
      userId: comments.userId,
      content: comments.content,
      createdAt: comments.createdAt,
      updatedAt: comments.updatedAt,
      isEdited: comments.isEdited,
      authorUsername: sql<string>`${profiles.username}`.as('author_username'),
      authorPhotoUrl: sql<string | null>`${profiles.profilePhotoUrl}`.as('author_photo_url'),
      authorIsPremium: sql<boolean>`${profiles.isPremium}`.as('author_is_premium'),
      authorIsPro: sql<boolean>`${profiles.isPro}`.as('author_is_pro'),
      authorIsPlus: sql<boolean>`${profiles.isPlus}`.as('author_is_plus'),
      authorIsMulti: sql<boolean>`${profiles.isMulti}`.as('author_is_multi'),
    })
    .from(comments)
    .innerJoin(profiles, sql`${profiles.id} = ${comments.userId}`),
);

/**
 * A report keeps a snapshot of the post, so the moderation queue still shows what was
 * reported after the post expires or is deleted.
 */
export const postReports = pgTable(
  'post_reports',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    postId: uuid('post_id').references(() => publications.id, { onDelete: 'set null' }),
    postAuthorId: uuid('post_author_id').references(() => profiles.id, { onDelete: 'set null' }),
    /** The member reporting; null for a notice of illegal content (dsaNoticeId), which may come from anyone. */
    reportedBy: uuid('reported_by').references(() => profiles.id, { onDelete: 'cascade' }),
    reasonKey: text('reason_key').notNull(),
    reason: text('reason').notNull(),
    description: text('description'),
    postSnapshot: jsonb('post_snapshot').$type<Record<string, unknown>>().notNull(),
    status: text('status').notNull().default('open'),
    createdAt: createdAt(),
    /** The moderator's decision that closed it. */
    decisionId: uuid('decision_id'),
    /** Keyed hash of the reporter's network (/24 or /48), never the address (reports/network.ts). */
    reporterNetwork: text('reporter_network'),
    /** Whether it counts toward hiding the post (moderation/threshold.ts); every report reaches the queue. */
    countsTowardHiding: boolean('counts_toward_hiding').notNull().default(false),
    /** The confirmed notice of illegal content this report stands for in the queue. */
    dsaNoticeId: uuid('dsa_notice_id').references(() => dsaNotices.id, { onDelete: 'cascade' }),
  },
  (table) => [
    check('post_reports_reporter_or_notice', sql`${table.reportedBy} is not null or ${table.dsaNoticeId} is not null`),
    uniqueIndex('post_reports_dsa_notice_key').on(table.dsaNoticeId),
    check('post_reports_reason_key', inList(table.reasonKey, REPORT_REASON_KEYS)),
    check(
      'post_reports_description_length',
      sql`${table.description} is null or char_length(${table.description}) <= 500`,
    ),
    check('post_reports_status', inList(table.status, ['open', 'dismissed', 'actioned'])),
    uniqueIndex('post_reports_once_per_reporter').on(table.postId, table.reportedBy),
    index('post_reports_status_created_idx').on(table.status, table.createdAt.desc()),
  ],
);

export const CONVERSATION_SIDES = ['accepted', 'request', 'deleted'] as const;
export type ConversationSide = (typeof CONVERSATION_SIDES)[number];

/**
 * A notice of illegal content (DSA Art. 16) by anyone. A visitor's waits for its e-mailed link
 * (confirmTokenHash, cleared once confirmed); confirmed, it joins the queue as a post_reports row.
 */
export const dsaNotices = pgTable(
  'dsa_notices',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    postId: uuid('post_id').references(() => publications.id, { onDelete: 'set null' }),
    postAuthorId: uuid('post_author_id').references(() => profiles.id, { onDelete: 'set null' }),
    notifierId: uuid('notifier_id').references(() => profiles.id, { onDelete: 'set null' }),
    name: text('name').notNull(),
    email: text('email').notNull(),
    explanation: text('explanation').notNull(),
    location: text('location').notNull(),
    postSnapshot: jsonb('post_snapshot').$type<Record<string, unknown>>().notNull(),
    confirmTokenHash: text('confirm_token_hash'),
    createdAt: createdAt(),
    confirmedAt: timestamp('confirmed_at', { withTimezone: true }),
  },
  (table) => [
    check(
      'dsa_notices_lengths',
      sql`char_length(${table.explanation}) <= 2000 and char_length(${table.name}) <= 100 and char_length(${table.location}) <= 500 and char_length(${table.email}) <= 254`,
    ),
    uniqueIndex('dsa_notices_confirm_token_key').on(table.confirmTokenHash),
  ],
);

/**
 * One conversation per pair, the smaller id first. A participant is null
 * once their account is deleted: the other keeps the conversation (account/deletion.ts).
 */
export const conversations = pgTable(
  'conversations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    participant1Id: uuid('participant1_id').references(() => profiles.id, { onDelete: 'set null' }),
    participant2Id: uuid('participant2_id').references(() => profiles.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    /** Each side's box: 'accepted' (the list), 'request' (a stranger's first messages, in 'Demandes'), 'deleted' (a request removed). */
    participant1State: text('participant1_state').$type<ConversationSide>().notNull().default('accepted'),
    participant2State: text('participant2_state').$type<ConversationSide>().notNull().default('accepted'),
  },
  (table) => [
    check('conversations_ordered_pair', sql`${table.participant1Id} < ${table.participant2Id}`),
    check(
      'conversations_someone_left',
      sql`${table.participant1Id} is not null or ${table.participant2Id} is not null`,
    ),
    check('conversations_participant1_state', inList(table.participant1State, CONVERSATION_SIDES)),
    check('conversations_participant2_state', inList(table.participant2State, CONVERSATION_SIDES)),
    uniqueIndex('conversations_pair_key').on(table.participant1Id, table.participant2Id),
    index('conversations_p1_updated_idx').on(table.participant1Id, table.updatedAt.desc()),
    index('conversations_p2_updated_idx').on(table.participant2Id, table.updatedAt.desc()),
  ],
);

export const messages = pgTable(
  'messages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    conversationId: uuid('conversation_id')
      .notNull()
      .references(() => conversations.id, { onDelete: 'cascade' }),
    /** Null once the sender's account is deleted ('Compte supprimé'). */
    senderId: uuid('sender_id').references(() => profiles.id, { onDelete: 'set null' }),
    content: text('content').notNull().default(''),
    imageUrl: text('image_url'),
    read: boolean('read').notNull().default(false),
    createdAt: createdAt(),
  },
  (table) => [
    // A deleted account's image is removed from its message, which may be left empty.
    check(
      'messages_not_empty',
      sql`char_length(${table.content}) > 0 or ${table.imageUrl} is not null or ${table.senderId} is null`,
    ),
    check('messages_content_length', sql`char_length(${table.content}) <= 2000`),
    index('messages_conversation_created_idx').on(table.conversationId, table.createdAt),
    index('messages_unread_idx').on(table.conversationId, table.senderId).where(sql`not ${table.read}`),
  ],
);

/** Security log, shown to staff. */
export const securityLogs = pgTable(
  'security_logs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    eventType: text('event_type').notNull(),
    eventDescription: text('event_description').notNull().default(''),
    severity: text('severity').notNull(),
    ip: text('ip'),
    createdAt: createdAt(),
    /** Staff actions: whom or what the action was about, and the reason given. */
    targetId: uuid('target_id'),
    reason: text('reason'),
    /** Repeats of one kind from one source within a window share a row (modules/security/log.ts). */
    sourceKey: text('source_key'),
    windowStart: timestamp('window_start', { withTimezone: true }),
    occurrences: integer('occurrences').notNull().default(1),
    lastAt: timestamp('last_at', { withTimezone: true }),
  },
  (table) => [
    check('security_logs_severity', inList(table.severity, SECURITY_SEVERITIES)),
    // Keyset pages newest first, whole or by severity or by event type.
    index('security_logs_created_id_idx').on(table.createdAt.desc(), table.id.desc()),
    index('security_logs_severity_created_idx').on(table.severity, table.createdAt.desc(), table.id.desc()),
    index('security_logs_type_created_idx').on(table.eventType, table.createdAt.desc(), table.id.desc()),
    uniqueIndex('security_logs_window_idx').on(table.eventType, table.windowStart, table.sourceKey),
  ],
);

/** Pulse credit purchases, one row per checkout session, credited once when paid. */
export const pulsePurchases = pgTable(
  'pulse_purchases',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => profiles.id, { onDelete: 'cascade' }),
    provider: text('provider').notNull(),
    sessionId: text('session_id').notNull().unique(),
    quantity: integer('quantity').notNull(),
    amountCents: integer('amount_cents').notNull(),
    currency: text('currency').notNull().default('EUR'),
    status: text('status').$type<PurchaseStatus>().notNull().default('pending'),
    createdAt: createdAt(),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    /** The provider's payment (Stripe PaymentIntent): refunds and disputes name it, not the session. */
    paymentIntentId: text('payment_intent_id'),
    /**
     * Set when a refund or dispute took the purchase back. creditsRemoved: how many of its credits
     * a refund or dispute took back from the balance.
     */
    refundedAt: timestamp('refunded_at', { withTimezone: true }),
    creditsRemoved: integer('credits_removed').notNull().default(0),
    /** Its credits given to posts (spent oldest purchase first); a refund never takes these. */
    creditsSpent: integer('credits_spent').notNull().default(0),
  },
  (table) => [
    check('pulse_purchases_credits', sql`${table.creditsSpent} + ${table.creditsRemoved} <= ${table.quantity}`),
    check('pulse_purchases_provider', inList(table.provider, PAYMENT_PROVIDERS)),
    check('pulse_purchases_status', inList(table.status, PURCHASE_STATUSES)),
    check('pulse_purchases_quantity', sql`${table.quantity} > 0 and ${table.amountCents} > 0`),
    index('pulse_purchases_user_idx').on(table.userId, table.createdAt.desc()),
    index('pulse_purchases_payment_intent_idx').on(table.paymentIntentId),
  ],
);

/**
 * Every payment-provider event handled, by the provider's event id. The primary key is what
 * makes a webhook act once: the event's row and its effect (credits added or removed) commit in
 * one transaction, so a retried, replayed or concurrent copy finds the row and does nothing.
 */
export const paymentEvents = pgTable(
  'payment_events',
  {
    id: text('id').primaryKey(),
    provider: text('provider').notNull(),
    type: text('type').notNull(),
    /** What the event did: credited, refunded, ignored_unknown_session, refused_amount, ... */
    outcome: text('outcome').notNull(),
    receivedAt: createdAt(),
  },
  (table) => [check('payment_events_provider', inList(table.provider, PAYMENT_PROVIDERS))],
);

/**
 * Paid purchases of deleted accounts, without any link to the person: the accounting record
 * kept for ten years (modules/account/deletion.ts moves them here and purges the expired ones).
 */
export const retainedPayments = pgTable(
  'retained_payments',
  {
    /** The purchase's own id. */
    id: uuid('id').primaryKey(),
    provider: text('provider').notNull(),
    sessionId: text('session_id').notNull(),
    paymentIntentId: text('payment_intent_id'),
    quantity: integer('quantity').notNull(),
    amountCents: integer('amount_cents').notNull(),
    currency: text('currency').notNull(),
    status: text('status').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    refundedAt: timestamp('refunded_at', { withTimezone: true }),
    keepUntil: timestamp('keep_until', { withTimezone: true }).notNull(),
  },
  (table) => [index('retained_payments_keep_until_idx').on(table.keepUntil)],
);

/**
 * Rate-limit counters shared by every server instance. Redis replaces this table
 * when REDIS_URL is set.
 */
export const rateLimits = pgTable(
  'rate_limits',
  {
    key: text('key').primaryKey(),
    points: integer('points').notNull().default(0),
    windowEndsAt: timestamp('window_ends_at', { withTimezone: true }).notNull(),
    blockedUntil: timestamp('blocked_until', { withTimezone: true }),
    /** Number of blocks so far, for security_violation's doubling escalation. */
    strikes: integer('strikes').notNull().default(0),
  },
  (table) => [index('rate_limits_window_idx').on(table.windowEndsAt)],
);

/**
 * Files uploaded for a post before it is created (image, voice message). A post claims them by
 * id, so only their uploader can attach them; unclaimed ones are swept after an hour.
 */
export const uploads = pgTable(
  'uploads',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => profiles.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    url: text('url').notNull(),
    thumbnailUrl: text('thumbnail_url'),
    durationSeconds: real('duration_seconds'),
    createdAt: createdAt(),
    claimedAt: timestamp('claimed_at', { withTimezone: true }),
  },
  (table) => [
    check('uploads_kind', inList(table.kind, ['post_image', 'voice'])),
    index('uploads_unclaimed_idx').on(table.createdAt).where(sql`${table.claimedAt} is null`),
  ],
);

/**
 * A moderator's decision on a reported post: what was done, why (a reason from
 * core's MODERATION_REASONS and an optional note), the post as reported, and until when its
 * author may appeal.
 */
export const moderationDecisions = pgTable(
  'moderation_decisions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    postId: uuid('post_id').references(() => publications.id, { onDelete: 'set null' }),
    authorId: uuid('author_id').references(() => profiles.id, { onDelete: 'set null' }),
    moderatorId: uuid('moderator_id').references(() => profiles.id, { onDelete: 'set null' }),
    action: text('action').notNull(),
    suspendDays: integer('suspend_days'),
    reasonKey: text('reason_key').notNull(),
    note: text('note'),
    postSnapshot: jsonb('post_snapshot').$type<Record<string, unknown>>().notNull(),
    createdAt: createdAt(),
    appealUntil: timestamp('appeal_until', { withTimezone: true }).notNull(),
    /** Set when an appeal reversed it. */
    reversedAt: timestamp('reversed_at', { withTimezone: true }),
  },
  (table) => [
    check('moderation_decisions_action', inList(table.action, MODERATION_ACTIONS)),
    check('moderation_decisions_note_length', sql`${table.note} is null or char_length(${table.note}) <= 1000`),
    index('moderation_decisions_author_idx').on(table.authorId, table.createdAt.desc()),
  ],
);

/** The author's appeal of a decision: once per decision, decided by another moderator. */
export const moderationAppeals = pgTable(
  'moderation_appeals',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    decisionId: uuid('decision_id')
      .notNull()
      .unique()
      .references(() => moderationDecisions.id, { onDelete: 'cascade' }),
    authorId: uuid('author_id')
      .notNull()
      .references(() => profiles.id, { onDelete: 'cascade' }),
    statement: text('statement').notNull(),
    status: text('status').notNull().default('open'),
    createdAt: createdAt(),
    decidedBy: uuid('decided_by').references(() => profiles.id, { onDelete: 'set null' }),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    note: text('note'),
  },
  (table) => [
    check('moderation_appeals_status', inList(table.status, APPEAL_STATUSES)),
    check('moderation_appeals_statement_length', sql`char_length(${table.statement}) between 1 and 2000`),
    index('moderation_appeals_open_idx').on(table.createdAt).where(sql`${table.status} = 'open'`),
  ],
);

/**
 * In-app notices (DSA Art. 16/17/20): a reporter's outcome, an author's statement of
 * reasons, an appeal's outcome. The texts are built from the decision at read time.
 */
export const moderationNotices = pgTable(
  'moderation_notices',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => profiles.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    decisionId: uuid('decision_id')
      .notNull()
      .references(() => moderationDecisions.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    readAt: timestamp('read_at', { withTimezone: true }),
  },
  (table) => [
    check('moderation_notices_kind', inList(table.kind, MODERATION_NOTICE_KINDS)),
    index('moderation_notices_user_idx').on(table.userId, table.createdAt.desc()),
  ],
);

/** Who blocked whom: each stops seeing the other; the blocked cannot write to the blocker. */
export const userBlocks = pgTable(
  'user_blocks',
  {
    blockerId: uuid('blocker_id')
      .notNull()
      .references(() => profiles.id, { onDelete: 'cascade' }),
    blockedId: uuid('blocked_id')
      .notNull()
      .references(() => profiles.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (table) => [
    primaryKey({ columns: [table.blockerId, table.blockedId] }),
    index('user_blocks_blocked_idx').on(table.blockedId),
    check('user_blocks_not_self', sql`${table.blockerId} <> ${table.blockedId}`),
  ],
);

/**
 * First-party analytics. No IP, no user id, no cookie: `visitor` is a hash of
 * the day's salt, the address and the browser, so a visitor is counted once a day and cannot be
 * followed from one day to the next (the salt of a past day is deleted).
 */
export const analyticsEvents = pgTable(
  'analytics_events',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    day: date('day').notNull(),
    name: text('name').notNull(),
    visitor: text('visitor'),
    path: text('path'),
    revenueCents: integer('revenue_cents').notNull().default(0),
    createdAt: createdAt(),
  },
  (table) => [
    check('analytics_events_name', inList(table.name, [...SERVER_ANALYTICS_EVENTS, ...CLIENT_ANALYTICS_EVENTS])),
    index('analytics_events_day_idx').on(table.day, table.name),
  ],
);

/** One random salt per day, shared by every instance; older ones are deleted. */
export const analyticsSalts = pgTable('analytics_salts', {
  day: date('day').primaryKey(),
  salt: text('salt').notNull(),
});

/** The cost monitor's daily counters, shared by every instance (Redis replaces it when set). */
export const costCounters = pgTable(
  'cost_counters',
  {
    day: date('day').notNull(),
    metric: text('metric').notNull(),
    units: doublePrecision('units').notNull().default(0),
  },
  (table) => [primaryKey({ columns: [table.day, table.metric] })],
);

/** One row per day and level reached: the first instance to insert it acts (warns, starts emergency mode). */
export const costAlerts = pgTable(
  'cost_alerts',
  {
    day: date('day').notNull(),
    level: text('level').notNull(),
    ratio: doublePrecision('ratio').notNull(),
    createdAt: createdAt(),
  },
  (table) => [primaryKey({ columns: [table.day, table.level] })],
);

/** Emergency mode: a single row; active while `active_until` is in the future. */
export const emergencyMode = pgTable(
  'emergency_mode',
  {
    id: integer('id').primaryKey(),
    activeUntil: timestamp('active_until', { withTimezone: true }),
    startedAt: timestamp('started_at', { withTimezone: true }),
    manual: boolean('manual').notNull().default(false),
    /** The staff member who switched it on, null when the cost monitor did; and why. */
    startedBy: uuid('started_by').references(() => users.id, { onDelete: 'set null' }),
    reason: text('reason'),
  },
  (table) => [check('emergency_mode_single', sql`${table.id} = 1`)],
);

/** Binary column: node-postgres reads a Buffer, PGlite a Uint8Array; both come back as a Buffer. */
const bytea = customType<{ data: Buffer; driverData: Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => Buffer.from(value),
});

/**
 * A member's data archive ('Télécharger mes données'): one row per member, prepared in the
 * background (modules/account/export-jobs.ts), downloadable for 7 days, then its bytes dropped.
 * Kept in the database so whichever instance answers can serve it.
 */
export const dataExports = pgTable(
  'data_exports',
  {
    userId: uuid('user_id')
      .primaryKey()
      .references(() => profiles.id, { onDelete: 'cascade' }),
    status: text('status').$type<(typeof DATA_EXPORT_STATUSES)[number]>().notNull().default('pending'),
    requestedAt: timestamp('requested_at', { withTimezone: true }).notNull(),
    readyAt: timestamp('ready_at', { withTimezone: true }),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    archive: bytea('archive'),
    sizeBytes: integer('size_bytes'),
  },
  (table) => [
    check('data_exports_status', inList(table.status, DATA_EXPORT_STATUSES)),
    index('data_exports_expires_idx').on(table.expiresAt).where(sql`${table.status} = 'ready'`),
  ],
);
