/**
 * Every column of the database that names a member, and what the data archive does with it:
 * written to one of its files, or left out for the reason given. A test reads the database's
 * own catalogue and fails on a member column listed in neither, so a new table cannot be
 * forgotten by 'Télécharger mes données'.
 */

/** `table.column` → the archive file holding the member's rows of it. */
export const EXPORTED_COLUMNS = {
  'users.id': 'profil.json',
  'profiles.id': 'profil.json',
  'staff_roles.user_id': 'profil.json',
  'publications.user_id': 'publications.json',
  'comments.user_id': 'commentaires.json',
  'likes.user_id': 'likes.json',
  'conversations.participant1_id': 'messages.json',
  'conversations.participant2_id': 'messages.json',
  'messages.sender_id': 'messages.json',
  'post_reports.reported_by': 'signalements.json',
  'dsa_notices.notifier_id': 'notifications-contenus-illicites.json',
  'pulse_purchases.user_id': 'achats.json',
  'moderation_decisions.author_id': 'moderation.json',
  'moderation_appeals.author_id': 'moderation.json',
  'moderation_notices.user_id': 'avis.json',
  'push_subscriptions.user_id': 'appareils-notifications.json',
  'user_blocks.blocker_id': 'blocages.json',
  'auth_sessions.user_id': 'sessions.json',
  'security_logs.user_id': 'journal-securite.json',
} as const satisfies Record<string, string>;

/** `table.column` → why the archive leaves it out. */
export const EXCLUDED_COLUMNS = {
  'auth_tokens.user_id': 'single-use e-mail link hashes, valid an hour or two: secrets, not data about the person',
  'refresh_tokens.user_id': 'token hashes of the sessions listed in sessions.json: secrets',
  'uploads.user_id':
    'files waiting for a post: a claimed one is in publications.json and media/, an unclaimed one is deleted within the hour',
  'post_reports.post_author_id':
    "reports about the person's posts: who reported is the reporters' data; the outcome is in moderation.json",
  'dsa_notices.post_author_id':
    "notices about the person's posts: who sent them is the notifiers' data; the outcome is in moderation.json",
  'moderation_decisions.moderator_id':
    "decisions a moderator took are the service's records; the moderator's name is never given out",
  'moderation_appeals.decided_by': "the moderator who decided an appeal: the service's records",
  'user_blocks.blocked_id': "who blocked the person is the blocker's data",
  'emergency_mode.started_by': "a staff member switching emergency mode on: the service's records",
  'data_exports.user_id': 'the archive itself',
} as const satisfies Record<string, string>;

/** The terms of use accepted (version and time), read from the person's `users` row. */
export const CONSENTS_FILE = 'consentements.json';

export type ArchiveFile = (typeof EXPORTED_COLUMNS)[keyof typeof EXPORTED_COLUMNS] | typeof CONSENTS_FILE;
