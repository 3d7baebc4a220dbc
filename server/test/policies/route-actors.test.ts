/**
 * Who may call what: every route of the app, called by each kind of caller, and the answer it
 * gives (the status, and the error code of a refusal). The callers are a visitor, a member with
 * no tie to the thing, its author (the owner of the post, comment, conversation, device or
 * decision the route names), someone its author blocked, a suspended and a banned member (whose
 * token outlived the ban), and each staff role. The rules are in server/src/policies; this table
 * is what they add up to, route by route. Every route of the app is listed, in the table or as
 * concerning no caller distinction, so a new route cannot escape.
 */
import { createECDH, randomBytes, randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { termsAt } from '@moodmap/core';
import { call, type AuthTestApp } from '../helpers/auth.ts';
import { engines } from '../helpers/databases.ts';
import { suiteAuthApp } from '../helpers/suite-app.ts';
import { listRoutes } from '../fuzz/route-list.ts';
import { insertPost, member, publish, type Member } from '../interactions/fixtures.ts';
import { multipart, png } from '../media/fixtures.ts';
import { recording } from '../media/webm-writer.ts';
import { staff } from '../moderation/fixtures.ts';

const ACTORS = [
  'visitor',
  'member',
  'author',
  'blocked',
  'suspended',
  'banned',
  'moderator',
  'admin',
  'super_admin',
] as const;
type ActorKind = (typeof ACTORS)[number];
type Caller = Exclude<ActorKind, 'visitor'>;
type StaffKind = 'moderator' | 'admin' | 'super_admin';
const STAFF: readonly StaffKind[] = ['moderator', 'admin', 'super_admin'];
/** The author comes last: their allowed call may take the thing away (a deleted post, a decided case). */
const CALL_ORDER: readonly ActorKind[] = [
  'visitor',
  'member',
  'blocked',
  'suspended',
  'banned',
  'moderator',
  'admin',
  'super_admin',
  'author',
];

interface World {
  who: Record<Caller, Member>;
  /** A viewport's cursor, for the map's changes. */
  cursor: string;
  /** A picture, for the upload routes. */
  image: Buffer;
  /** The other person of the author's conversation; the target of role and tier changes. */
  peer: Member;
  /** The author's live post: read, liked, commented, reported, notified. */
  post: string;
  /** The author's post that DELETE takes. */
  doomedPost: string;
  /** The author's comments on their post: one edited, one deleted. */
  comment: string;
  doomedComment: string;
  /** The author's conversation with the peer (accepted for both), and a stranger's request to the author. */
  conversation: string;
  request: string;
  /** The author's push device. */
  device: string;
  /** A decision that removed a post of the author's, which they appeal. */
  decision: string;
  /** For each staff member, a post of the author's with an open report, and an open appeal of the author's. */
  reported: Record<StaffKind, string>;
  appeal: Record<StaffKind, string>;
}

/** What a route's request carries besides its method; `who` may pick their own target. */
interface Request {
  url: string;
  payload?: InjectOptions['payload'];
  headers?: Record<string, string>;
}
type Answers = Record<ActorKind, string>;
interface Case {
  request: (w: World, who: ActorKind) => Request;
  answers: Answers;
}

const UNSIGNED = '401 not_authenticated';
const SUSPENDED = '403 account_suspended';
const BANNED = '403 account_banned';
const FORBIDDEN = '403 forbidden';

/** `ok` for every signed-in caller, 401 for the visitor; then the exceptions. */
const signedIn = (ok: string, exceptions: Partial<Answers> = {}): Answers => ({
  visitor: UNSIGNED,
  member: ok,
  author: ok,
  blocked: ok,
  suspended: ok,
  banned: ok,
  moderator: ok,
  admin: ok,
  super_admin: ok,
  ...exceptions,
});
/** The same `ok` for everyone, a visitor too; then the exceptions. */
const everyone = (ok: string, exceptions: Partial<Answers> = {}) => signedIn(ok, { visitor: ok, ...exceptions });
/** A write that puts something before others (or pays): neither suspended nor banned (policies/standing.ts). */
const contributes = (ok: string, exceptions: Partial<Answers> = {}) =>
  signedIn(ok, { suspended: SUSPENDED, banned: BANNED, ...exceptions });
/** A write a suspended account still makes (its own things: remove, report, block, read, push), but not a banned one. */
const keeps = (ok: string, exceptions: Partial<Answers> = {}) => signedIn(ok, { banned: BANNED, ...exceptions });
/**
 * A staff tool: `ok` for the given roles, 403 for everyone else. `write`: a staff write, which a
 * suspended or banned account is refused before its role is read (policies/standing.ts).
 */
function staffTool(roles: readonly StaffKind[], ok: string, write: boolean): Answers {
  const denied = signedIn(FORBIDDEN, write ? { suspended: SUSPENDED, banned: BANNED } : {});
  return { ...denied, ...Object.fromEntries(roles.map((role) => [role, ok])) };
}
/** Someone else's thing, unknown to them: 404 `code` for every signed-in caller but the author. */
const ownersOnly = (code: string, ok: string, exceptions: Partial<Answers> = {}) =>
  signedIn(`404 ${code}`, { author: ok, ...exceptions });

const pushSubscription = () => ({
  endpoint: `https://fcm.googleapis.com/fcm/send/${randomUUID()}`,
  expirationTime: null,
  keys: {
    p256dh: createECDH('prime256v1').generateKeys().toString('base64url'),
    auth: randomBytes(16).toString('base64url'),
  },
});
/** A multipart request with one `file`, as the upload routes take. */
function upload(url: string, file: { filename: string; contentType: string; body: Buffer }): Request {
  const form = multipart([{ name: 'file', file }]);
  return { url, payload: form.payload, headers: form.headers };
}
const picture = (w: World) => ({ filename: 'moi.png', contentType: 'image/png', body: w.image });
const dsaNotice = (w: World, who: ActorKind) => ({
  explanation: 'Contenu manifestement illicite',
  location: `https://moodmap.test/post/${w.post}`,
  name: 'Léa Martin',
  email: `${who}.${randomUUID().slice(0, 8)}@example.fr`,
  goodFaith: true,
});

const TABLE: Record<string, Case> = {
  // Posts
  'GET /api/posts': { request: () => ({ url: '/api/posts' }), answers: everyone('200') },
  'GET /api/posts/viewport': {
    request: () => ({ url: '/api/posts/viewport?west=55.4&south=-20.9&east=55.5&north=-20.8&zoom=13' }),
    answers: everyone('200'),
  },
  'GET /api/posts/changes': {
    request: (w) => ({ url: `/api/posts/changes?since=${w.cursor}` }),
    answers: everyone('200'),
  },
  'GET /api/posts/cards': { request: (w) => ({ url: `/api/posts/cards?ids=${w.post}` }), answers: everyone('200') },
  'GET /api/search': { request: () => ({ url: '/api/search?q=Bonjour' }), answers: everyone('200') },
  'GET /api/posts/:id': {
    request: (w) => ({ url: `/api/posts/${w.post}` }),
    answers: everyone('200', { blocked: '404 post_not_found' }),
  },
  'GET /api/posts/:id/comments': {
    request: (w) => ({ url: `/api/posts/${w.post}/comments` }),
    answers: everyone('200', { blocked: '404 post_not_found' }),
  },
  'GET /api/posts/mine/active': { request: () => ({ url: '/api/posts/mine/active' }), answers: signedIn('200') },
  'POST /api/posts': {
    request: () => ({
      url: '/api/posts',
      payload: { category: 'happy', content: 'Bonjour', latitude: -20.8789, longitude: 55.4481 },
    }),
    answers: contributes('201', { author: '409 post_active_exists' }),
  },
  'POST /api/uploads/post-image': {
    request: (w) => upload('/api/uploads/post-image', picture(w)),
    answers: contributes('201'),
  },
  'POST /api/uploads/voice': {
    request: () => upload('/api/uploads/voice', { filename: 'blob', contentType: 'audio/webm', body: recording(3) }),
    answers: contributes('201'),
  },
  'DELETE /api/posts/:id': {
    request: (w) => ({ url: `/api/posts/${w.doomedPost}` }),
    answers: keeps('403 post_delete_impossible', { author: '204' }),
  },
  // Likes and comments
  'PUT /api/posts/:id/like': {
    request: (w) => ({ url: `/api/posts/${w.post}/like` }),
    answers: contributes('200', { blocked: '403 user_blocked_you' }),
  },
  'DELETE /api/posts/:id/like': {
    request: (w) => ({ url: `/api/posts/${w.post}/like` }),
    answers: contributes('200', { blocked: '403 user_blocked_you' }),
  },
  'POST /api/posts/:id/like': {
    request: (w) => ({ url: `/api/posts/${w.post}/like` }),
    answers: contributes('200', { blocked: '403 user_blocked_you' }),
  },
  'POST /api/posts/:id/comments': {
    request: (w) => ({ url: `/api/posts/${w.post}/comments`, payload: { content: 'Je passe' } }),
    answers: contributes('201', { blocked: '403 user_blocked_you' }),
  },
  'PATCH /api/comments/:id': {
    request: (w) => ({ url: `/api/comments/${w.comment}`, payload: { content: 'Modifié' } }),
    answers: contributes(FORBIDDEN, { author: '200' }),
  },
  'DELETE /api/comments/:id': {
    request: (w) => ({ url: `/api/comments/${w.doomedComment}` }),
    answers: keeps(FORBIDDEN, { author: '200' }),
  },
  // Reports: open whatever the blocks; a notice of illegal content from anyone, a visitor too.
  'POST /api/posts/:id/report': {
    request: (w) => ({ url: `/api/posts/${w.post}/report`, payload: { reason: 'spam' } }),
    answers: keeps('201', { author: '403 report_own_post' }),
  },
  'POST /api/dsa-notices': {
    request: (w, who) => ({ url: '/api/dsa-notices', payload: dsaNotice(w, who) }),
    answers: everyone('201', { author: '403 report_own_post' }),
  },
  // Profiles and blocks: a person is their own "thing" (blocking oneself is refused).
  'GET /api/profiles/:id': {
    request: (w) => ({ url: `/api/profiles/${w.who.author.id}` }),
    answers: everyone('200', { blocked: '404 profile_not_found' }),
  },
  'PATCH /api/profiles/me': {
    request: () => ({ url: '/api/profiles/me', payload: { bio: 'Une bio' } }),
    answers: contributes('200'),
  },
  'POST /api/profiles/me/photo': {
    request: (w) => upload('/api/profiles/me/photo', picture(w)),
    answers: contributes('200'),
  },
  'DELETE /api/profiles/me/photo': { request: () => ({ url: '/api/profiles/me/photo' }), answers: keeps('200') },
  'GET /api/blocks': { request: () => ({ url: '/api/blocks' }), answers: signedIn('200') },
  'PUT /api/blocks/:id': {
    request: (w, who) => ({ url: `/api/blocks/${who === 'author' ? w.who.author.id : w.peer.id}` }),
    answers: keeps('200', { author: '400 block_self' }),
  },
  'DELETE /api/blocks/:id': { request: (w) => ({ url: `/api/blocks/${w.peer.id}` }), answers: keeps('200') },
  // Messages: a conversation exists only for its two people.
  'POST /api/conversations': {
    request: (w) => ({ url: '/api/conversations', payload: { userId: w.who.author.id } }),
    answers: contributes('201', { author: '400 conversation_self', blocked: '403 user_blocked_you' }),
  },
  'GET /api/conversations': { request: () => ({ url: '/api/conversations' }), answers: signedIn('200') },
  'GET /api/conversations/requests': {
    request: () => ({ url: '/api/conversations/requests' }),
    answers: signedIn('200'),
  },
  'GET /api/conversations/unread': { request: () => ({ url: '/api/conversations/unread' }), answers: signedIn('200') },
  'GET /api/conversations/:id': {
    request: (w) => ({ url: `/api/conversations/${w.conversation}` }),
    answers: ownersOnly('conversation_not_found', '200'),
  },
  'GET /api/conversations/:id/messages': {
    request: (w) => ({ url: `/api/conversations/${w.conversation}/messages` }),
    answers: ownersOnly('conversation_not_found', '200'),
  },
  'POST /api/conversations/:id/messages': {
    request: (w) => ({ url: `/api/conversations/${w.conversation}/messages`, payload: { content: 'Salut' } }),
    answers: ownersOnly('conversation_not_found', '201', { suspended: SUSPENDED, banned: BANNED }),
  },
  'POST /api/conversations/:id/read': {
    request: (w) => ({ url: `/api/conversations/${w.conversation}/read` }),
    answers: ownersOnly('conversation_not_found', '200', { banned: BANNED }),
  },
  'POST /api/conversations/:id/accept': {
    request: (w) => ({ url: `/api/conversations/${w.conversation}/accept` }),
    answers: ownersOnly('conversation_not_found', '200', { banned: BANNED }),
  },
  'DELETE /api/conversations/:id/request': {
    request: (w) => ({ url: `/api/conversations/${w.request}/request` }),
    answers: ownersOnly('request_not_found', '204', { banned: BANNED }),
  },
  // Push devices: each person's own.
  'GET /api/push/key': { request: () => ({ url: '/api/push/key' }), answers: signedIn('200') },
  'GET /api/push/subscriptions': { request: () => ({ url: '/api/push/subscriptions' }), answers: signedIn('200') },
  'POST /api/push/subscriptions': {
    request: () => ({ url: '/api/push/subscriptions', payload: pushSubscription() }),
    answers: keeps('201'),
  },
  'PATCH /api/push/subscriptions/:id': {
    request: (w) => ({ url: `/api/push/subscriptions/${w.device}`, payload: { preview: false } }),
    answers: ownersOnly('push_device_not_found', '200', { banned: BANNED }),
  },
  'DELETE /api/push/subscriptions/:id': {
    request: (w) => ({ url: `/api/push/subscriptions/${w.device}` }),
    answers: ownersOnly('push_device_not_found', '200', { banned: BANNED }),
  },
  // Moderation: the author's notices and appeal; the staff's queue and decisions.
  'GET /api/moderation/notices': { request: () => ({ url: '/api/moderation/notices' }), answers: signedIn('200') },
  'POST /api/moderation/notices/read': {
    request: () => ({ url: '/api/moderation/notices/read' }),
    answers: keeps('200'),
  },
  'POST /api/moderation/decisions/:id/appeal': {
    request: (w) => ({ url: `/api/moderation/decisions/${w.decision}/appeal`, payload: { statement: 'Je conteste' } }),
    answers: ownersOnly('not_found', '201'),
  },
  'GET /api/moderation/queue': {
    request: () => ({ url: '/api/moderation/queue' }),
    answers: staffTool(STAFF, '200', false),
  },
  'POST /api/moderation/posts/:postId/decision': {
    request: (w, who) => ({
      url: `/api/moderation/posts/${w.reported[isStaff(who) ? who : 'moderator']}/decision`,
      payload: { action: 'dismiss', reason: 'no_violation' },
    }),
    answers: staffTool(STAFF, '200', true),
  },
  'POST /api/moderation/appeals/:id/decision': {
    request: (w, who) => ({
      url: `/api/moderation/appeals/${w.appeal[isStaff(who) ? who : 'moderator']}/decision`,
      payload: { outcome: 'uphold' },
    }),
    answers: staffTool(STAFF, '200', true),
  },
  // The admin panel and the service's tools.
  'POST /api/admin/visit': { request: () => ({ url: '/api/admin/visit' }), answers: staffTool(STAFF, '200', true) },
  'GET /api/admin/users': { request: () => ({ url: '/api/admin/users' }), answers: staffTool(STAFF, '200', false) },
  'GET /api/admin/security-logs': {
    request: () => ({ url: '/api/admin/security-logs' }),
    answers: staffTool(STAFF, '200', false),
  },
  'PUT /api/admin/users/:id/role': {
    request: (w) => ({ url: `/api/admin/users/${w.peer.id}/role`, payload: { role: 'user' } }),
    answers: staffTool(['super_admin'], '200', true),
  },
  'PUT /api/staff/users/:id/tier': {
    request: (w) => ({ url: `/api/staff/users/${w.peer.id}/tier`, payload: { tier: 'Premium' } }),
    answers: staffTool(['admin', 'super_admin'], '200', true),
  },
  'GET /api/stats': {
    request: () => ({ url: '/api/stats' }),
    answers: staffTool(['admin', 'super_admin'], '200', false),
  },
  'GET /api/costs': {
    request: () => ({ url: '/api/costs' }),
    answers: staffTool(['admin', 'super_admin'], '200', false),
  },
  'PUT /api/costs/emergency': {
    request: () => ({ url: '/api/costs/emergency', payload: { active: false } }),
    answers: staffTool(['super_admin'], '200', true),
  },
  // Pulse, terms and the account: each person's own.
  'POST /api/pulse/checkout': {
    request: () => ({ url: '/api/pulse/checkout', payload: { quantity: 1 } }),
    answers: contributes('200'),
  },
  'GET /api/pulse/purchases': { request: () => ({ url: '/api/pulse/purchases' }), answers: signedIn('200') },
  'POST /api/terms/accept': {
    request: () => ({ url: '/api/terms/accept', payload: { version: termsAt(new Date()).current.version } }),
    answers: signedIn('200'),
  },
  'GET /api/auth/session': { request: () => ({ url: '/api/auth/session' }), answers: signedIn('200') },
  'GET /api/auth/role': { request: () => ({ url: '/api/auth/role' }), answers: signedIn('200') },
  // A password refused for its weakness: the change itself would end the caller's sessions.
  'POST /api/auth/password': {
    request: () => ({ url: '/api/auth/password', payload: { password: 'court' } }),
    answers: signedIn('400 weak_password'),
  },
  'GET /api/account/export/download': {
    request: () => ({ url: '/api/account/export/download' }),
    answers: signedIn('404 export_not_found'),
  },
  'GET /api/account/export': { request: () => ({ url: '/api/account/export' }), answers: signedIn('200') },
  'POST /api/account/export': { request: () => ({ url: '/api/account/export' }), answers: signedIn('202') },
  // A wrong password: the deletion itself would end the caller.
  'POST /api/account/delete': {
    request: () => ({ url: '/api/account/delete', payload: { password: 'PasLeBon2024' } }),
    answers: keeps('403 account_delete_wrong_password'),
  },
};

const PUBLIC = 'public texts, figures and map data, the same for everyone';
const LINK = 'the body, the cookie or the mailed link names the account, not the caller';
/** Routes whose answer does not depend on who calls, each with the reason. */
const NO_DISTINCTION: Record<string, string> = {
  'GET /api/health': PUBLIC,
  'GET /api/config': PUBLIC,
  'GET /api/emergency': PUBLIC,
  'GET /api/terms': PUBLIC,
  'GET /api/geo/land': PUBLIC,
  'GET /api/geo/places': PUBLIC,
  'GET /api/geo/tiles/:z/:x/:y.pbf': PUBLIC,
  'GET /api/geo/basemap.pmtiles': PUBLIC,
  'GET /api/map/borders.geojson': PUBLIC,
  'GET /api/map/land.geojson': PUBLIC,
  'GET /media/*': 'stored files, by unguessable name',
  'POST /api/analytics/events': 'anonymous page-view counts',
  'GET /api/auth/challenge': LINK,
  'POST /api/auth/signup': LINK,
  'POST /api/auth/login': LINK,
  'POST /api/auth/refresh': LINK,
  'POST /api/auth/logout': LINK,
  'POST /api/auth/recover': LINK,
  'POST /api/auth/reset-password': LINK,
  'GET /api/auth/verify': LINK,
  'POST /api/dsa-notices/confirm': LINK,
  'GET /api/moderation/appeal-link': LINK,
  'POST /api/moderation/appeal-link': LINK,
  'POST /api/payments/webhook': "the payment provider's signed calls",
  'GET /api/realtime': 'the socket: its events are checked per person by the realtime and blocks suites',
  'GET /dev/mail': 'development pages, for this machine only',
  'GET /dev/mail.json': 'development pages, for this machine only',
  'POST /dev/role': 'development pages, for this machine only',
  'GET /dev/checkout/:id': 'development pages, for this machine only',
  'POST /dev/checkout/:id': 'development pages, for this machine only',
  'POST /dev/checkout/:id/confirm': 'development pages, for this machine only',
};

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
function methodOf(route: string): (typeof METHODS)[number] {
  const method = METHODS.find((m) => route.startsWith(`${m} `));
  if (!method) throw new Error(`no method in ${route}`);
  return method;
}

function isStaff(who: ActorKind): who is StaffKind {
  return STAFF.some((role) => role === who);
}

/** '200', or '403 code' for an error answer. */
function answerOf(res: LightMyRequestResponse): string {
  if (res.statusCode < 400) return String(res.statusCode);
  const code: unknown = res.headers['content-type']?.toString().includes('json') ? res.json().error?.code : undefined;
  return typeof code === 'string' ? `${res.statusCode} ${code}` : String(res.statusCode);
}

/** The answer of a request the world needs, which must succeed. */
async function ok(res: Promise<LightMyRequestResponse>, what: string): Promise<LightMyRequestResponse> {
  const answer = await res;
  if (answer.statusCode >= 300) throw new Error(`world: ${what} answered ${answer.statusCode} ${answer.body}`);
  return answer;
}

/** A post of the author's with an open report; with a `judge`, the moderator's decision that removed it. */
async function reportedPost(
  t: AuthTestApp,
  author: Member,
  reporter: Member,
  judge?: Member,
): Promise<{ postId: string; decisionId: string }> {
  const postId = await insertPost(t, author.id);
  await ok(
    call(t, {
      method: 'POST',
      url: `/api/posts/${postId}/report`,
      token: reporter.token,
      payload: { reason: 'harassment' },
    }),
    'report',
  );
  if (!judge) return { postId, decisionId: '' };
  const decided = await ok(
    call(t, {
      method: 'POST',
      url: `/api/moderation/posts/${postId}/decision`,
      token: judge.token,
      payload: { action: 'remove', reason: 'harassment' },
    }),
    'decision',
  );
  return { postId, decisionId: decided.json().decision.id };
}

async function buildWorld(t: AuthTestApp): Promise<World> {
  const who: Record<Caller, Member> = {
    member: await member(t),
    author: await member(t),
    blocked: await member(t),
    suspended: await member(t),
    banned: await member(t),
    moderator: await staff(t, 'moderator'),
    admin: await staff(t, 'admin'),
    super_admin: await staff(t, 'super_admin'),
  };
  const [peer, stranger, judge] = [await member(t), await member(t), await staff(t, 'moderator')];
  const { author } = who;
  const as = (token: string, method: 'POST' | 'PUT', url: string, payload?: InjectOptions['payload']) =>
    call(t, { method, url, token, payload });
  const post = (await publish(t, author.token)).id;
  const doomedPost = await insertPost(t, author.id);
  const comment = async () =>
    (
      await ok(as(author.token, 'POST', `/api/posts/${post}/comments`, { content: 'Mon commentaire' }), 'comment')
    ).json().comment.id;
  const conversation = (
    await ok(as(author.token, 'POST', '/api/conversations', { userId: peer.id }), 'conversation')
  ).json().conversation.id;
  await ok(as(author.token, 'POST', `/api/conversations/${conversation}/messages`, { content: 'Salut' }), 'message');
  const request = (await ok(as(stranger.token, 'POST', '/api/conversations', { userId: author.id }), 'request')).json()
    .conversation.id;
  await ok(
    as(stranger.token, 'POST', `/api/conversations/${request}/messages`, { content: 'Bonjour' }),
    'request message',
  );
  const device = (await ok(as(author.token, 'POST', '/api/push/subscriptions', pushSubscription()), 'device')).json()
    .device.id;
  const { decisionId: decision } = await reportedPost(t, author, peer, judge);
  const reported = { moderator: '', admin: '', super_admin: '' };
  const appeal = { moderator: '', admin: '', super_admin: '' };
  for (const role of STAFF) {
    reported[role] = (await reportedPost(t, author, peer)).postId;
    const appealed = await reportedPost(t, author, stranger, judge);
    appeal[role] = (
      await ok(
        as(author.token, 'POST', `/api/moderation/decisions/${appealed.decisionId}/appeal`, {
          statement: 'Je conteste',
        }),
        'appeal',
      )
    ).json().appeal.id;
  }
  await ok(as(author.token, 'PUT', `/api/blocks/${who.blocked.id}`), 'block');
  // Restricted after the world is built: a week's suspension, and a ban the token outlives.
  await t.database.db.execute(
    sql`update users set suspended_until = now() + interval '7 days' where id = ${who.suspended.id}`,
  );
  await t.database.db.execute(sql`update users set banned_at = now() where id = ${who.banned.id}`);
  const cursor = (
    await ok(
      call(t, { method: 'GET', url: '/api/posts/viewport?west=55.4&south=-20.9&east=55.5&north=-20.8&zoom=13' }),
      'viewport',
    )
  ).json().cursor;
  return {
    who,
    cursor,
    image: await png(64, 64),
    peer,
    post,
    doomedPost,
    comment: await comment(),
    doomedComment: await comment(),
    conversation,
    request,
    device,
    decision,
    reported,
    appeal,
  };
}

describe.each(engines)('who may call each route, on %s', (engine) => {
  const t = suiteAuthApp(engine);
  let world: World;
  beforeAll(async () => {
    world = await buildWorld(t);
  }, 60_000);

  it('lists every route, in the table or as concerning no caller distinction', () => {
    const routes = listRoutes(t.app)
      .filter((r) => r.method !== 'HEAD')
      .map((r) => `${r.method} ${r.url}`);
    const listed = [...Object.keys(TABLE), ...Object.keys(NO_DISTINCTION)];
    expect(
      routes.filter((r) => !listed.includes(r)),
      'routes this table does not know: add them, or say why no caller differs',
    ).toEqual([]);
    expect(
      listed.filter((r) => !routes.includes(r)),
      'routes gone',
    ).toEqual([]);
  });

  it('answers each caller as the policies say', async () => {
    const actual: Record<string, Partial<Answers>> = {};
    for (const [route, { request }] of Object.entries(TABLE)) {
      const method = methodOf(route);
      const row: Partial<Answers> = {};
      for (const who of CALL_ORDER) {
        const token = who === 'visitor' ? undefined : world.who[who].token;
        row[who] = answerOf(await call(t, { method, token, ...request(world, who) }));
      }
      actual[route] = row;
    }
    expect(actual).toEqual(Object.fromEntries(Object.entries(TABLE).map(([route, { answers }]) => [route, answers])));
  }, 120_000);
});
