/** Shared helpers of the interaction suites: signed-in members and their posts. */
import { sql } from 'drizzle-orm';
import { call, createUser, login, type AuthTestApp } from '../helpers/auth.ts';

export const SAINT_DENIS = { latitude: -20.8789, longitude: 55.4481 };

export interface Member {
  id: string;
  token: string;
  username: string;
}

/** A confirmed user, signed in (which creates the profile); `nickname` becomes the username. */
export async function member(t: AuthTestApp, nickname?: string): Promise<Member> {
  const user = await createUser(t, nickname ? { metadata: { nickname } } : {});
  const session = await login(t, user.email, user.password);
  return { id: user.id, token: session.accessToken, username: session.user.profile.username };
}

export interface PostFields {
  category?: string;
  content?: string;
  /** Where the post is (Saint-Denis de La Réunion unless given). */
  latitude?: number;
  longitude?: number;
}

/** A post through the API (the member's one active post); returns the PostDto. */
export async function publish(t: AuthTestApp, token: string, fields: PostFields = {}) {
  const res = await call(t, {
    method: 'POST',
    url: '/api/posts',
    token,
    payload: { category: 'happy', content: 'Bonjour', ...SAINT_DENIS, ...fields },
  });
  if (res.statusCode !== 201) throw new Error(`post failed: ${res.statusCode} ${res.body}`);
  return res.json().post as {
    id: string;
    userId: string;
    category: string;
    content: string;
    likesCount: number;
    commentsCount: number;
  };
}

/** A post straight in the database, `ageMinutes` old (bulk cases; the one-post rule is the API's). */
export async function insertPost(
  t: AuthTestApp,
  userId: string,
  fields: PostFields & { ageMinutes?: number; nickname?: string } = {},
): Promise<string> {
  const result = await t.database.db.execute(sql`
    insert into publications (user_id, category, content, latitude, longitude, nickname, created_at)
    select ${userId}, ${fields.category ?? 'happy'}, ${fields.content ?? 'Bonjour'}, ${fields.latitude ?? SAINT_DENIS.latitude}, ${fields.longitude ?? SAINT_DENIS.longitude},
           coalesce(${fields.nickname ?? null}::text, username), now() - make_interval(mins => ${fields.ageMinutes ?? 0})
    from profiles where id = ${userId}
    returning id`);
  return (result.rows[0] as { id: string }).id;
}

/** Makes a post 25 hours old by the database clock: no longer live. */
export async function expire(t: AuthTestApp, postId: string): Promise<void> {
  await t.database.db.execute(
    sql`update publications set created_at = now() - interval '25 hours' where id = ${postId}`,
  );
}

/** What a post counts, and the rows it counts. */
const COUNTERS = {
  likes: { stored: sql`p.likes_count`, rows: sql`likes` },
  comments: { stored: sql`p.comments_count`, rows: sql`comments` },
};

/** A post's stored likes_count or comments_count beside how many such rows there really are. */
export async function storedAndActualCount(t: AuthTestApp, postId: string, counter: keyof typeof COUNTERS) {
  const { stored, rows } = COUNTERS[counter];
  const result = await t.database.db.execute(sql`
    select ${stored} as stored, (select count(*)::int from ${rows} r where r.publication_id = p.id) as actual
    from publications p where p.id = ${postId}`);
  const row = result.rows[0] as { stored: number; actual: number };
  return { stored: Number(row.stored), actual: Number(row.actual) };
}
