/**
 * The world the fuzz runs in: two members, a post of each, a comment, a conversation with a
 * message — real ids for path parameters and cursors, so hostile input reaches the queries
 * behind "not found". The signed-in caller is the first member; if a fuzzed request ends its
 * session (a valid password change), a new member takes over.
 */
import { call, createUser, login, type AuthTestApp } from '../helpers/auth.ts';
import { insertPost } from '../interactions/fixtures.ts';
import type { WorldIds } from './requests.ts';

export interface World {
  ids: WorldIds;
  /** The signed-in caller's access token, renewed when a fuzzed request has ended the session. */
  token(): string;
  /** After a 401 to a signed-in request: checks the session and signs a new member in if it ended. */
  ensureSignedIn(): Promise<void>;
}

async function signedInMember(t: AuthTestApp) {
  const user = await createUser(t);
  const session = await login(t, user.email, user.password);
  return { id: user.id, token: session.accessToken };
}

export async function createWorld(t: AuthTestApp): Promise<World> {
  const lea = await signedInMember(t);
  const marc = await signedInMember(t);
  const leaPost = await insertPost(t, lea.id);
  const marcPost = await insertPost(t, marc.id);
  const ok = (res: { statusCode: number; body: string; json: () => unknown }, what: string) => {
    if (res.statusCode >= 300) throw new Error(`fixture ${what} failed: ${res.statusCode} ${res.body}`);
    return res.json() as Record<string, { id: string }>;
  };
  const comment = ok(
    await call(t, {
      method: 'POST',
      url: `/api/posts/${marcPost}/comments`,
      token: lea.token,
      payload: { content: 'Bravo' },
    }),
    'comment',
  );
  const conversation = ok(
    await call(t, { method: 'POST', url: '/api/conversations', token: lea.token, payload: { userId: marc.id } }),
    'conversation',
  );
  const message = ok(
    await call(t, {
      method: 'POST',
      url: `/api/conversations/${conversation.conversation.id}/messages`,
      token: lea.token,
      payload: { content: 'Coucou' },
    }),
    'message',
  );

  let token = lea.token;
  return {
    ids: {
      users: [lea.id, marc.id],
      posts: [leaPost, marcPost],
      comments: [comment.comment.id],
      conversations: [conversation.conversation.id],
      messages: [message.message.id],
    },
    token: () => token,
    async ensureSignedIn() {
      const res = await call(t, { method: 'GET', url: '/api/auth/session', token });
      if (res.statusCode === 401) token = (await signedInMember(t)).token;
    },
  };
}
