import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { call } from '../helpers/auth.ts';
import { engines } from '../helpers/databases.ts';
import { suiteAuthApp } from '../helpers/suite-app.ts';
import { SAINT_DENIS, expire, member, publish, storedAndActualCount, type Member } from './fixtures.ts';

interface Comment {
  id: string;
  postId: string;
  userId: string;
  content: string;
  createdAt: string;
  updatedAt: string;
  isEdited: boolean;
  author: {
    username: string;
    photoUrl: string | null;
    isPremium: boolean;
    isPro: boolean;
    isPlus: boolean;
    isMulti: boolean;
  };
}

describe.each(engines)('comments on %s', (engine) => {
  const t = suiteAuthApp(engine);

  const add = (token: string, postId: string, content: unknown) =>
    call(t, { method: 'POST', url: `/api/posts/${postId}/comments`, token, payload: { content } });
  const edit = (token: string, id: string, content: unknown) =>
    call(t, { method: 'PATCH', url: `/api/comments/${id}`, token, payload: { content } });
  const remove = (token: string, id: string) => call(t, { method: 'DELETE', url: `/api/comments/${id}`, token });
  const list = async (postId: string) => {
    const res = await call(t, { method: 'GET', url: `/api/posts/${postId}/comments` });
    expect(res.statusCode).toBe(200);
    return res.json().comments as Comment[];
  };
  const counts = (postId: string) => storedAndActualCount(t, postId, 'comments');
  const feedPost = async (postId: string) =>
    (await call(t, { method: 'GET', url: `/api/posts/${postId}` })).json().post;

  let author: Member;
  let bob: Member;
  let chloe: Member;
  beforeAll(async () => {
    author = await member(t, 'Amandine');
    bob = await member(t, 'Bob');
    chloe = await member(t, 'Chloé');
  }, 60_000);

  it('adds sanitised comments, lists them oldest first with their author, and counts them', async () => {
    await t.database.db.execute(
      sql`update profiles set is_premium = true, profile_photo_url = 'https://cdn.test/bob.jpg' where id = ${bob.id}`,
    );
    const post = await publish(t, author.token);
    const first = await add(bob.token, post.id, '  Super <b>photo</b> !  ');
    expect(first.statusCode).toBe(201);
    expect(first.json()).toMatchObject({
      commentsCount: 1,
      comment: { postId: post.id, userId: bob.id, content: 'Super photo !', isEdited: false },
    });
    expect((await add(chloe.token, post.id, 'Merci pour le partage')).json().commentsCount).toBe(2);
    expect((await add(bob.token, post.id, 'Encore moi')).json().commentsCount).toBe(3);

    const comments = await list(post.id);
    expect(comments.map((c) => c.content)).toEqual(['Super photo !', 'Merci pour le partage', 'Encore moi']);
    expect(comments[0]).toEqual({
      id: first.json().comment.id,
      postId: post.id,
      userId: bob.id,
      content: 'Super photo !',
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      isEdited: false,
      author: {
        username: 'Bob',
        photoUrl: 'https://cdn.test/bob.jpg',
        isPremium: true,
        isPro: false,
        isPlus: false,
        isMulti: false,
      },
    });
    expect(comments[1].author.username).toBe('Chloé');
    expect((await feedPost(post.id)).commentsCount).toBe(3);
    expect(await counts(post.id)).toEqual({ stored: 3, actual: 3 });
  });

  it('lets the author edit a comment, which is marked as edited', async () => {
    const post = await publish(t, (await member(t)).token);
    const created = (await add(bob.token, post.id, 'Premier jet')).json().comment as Comment;
    const res = await edit(bob.token, created.id, 'Version corrigée');
    expect(res.statusCode).toBe(200);
    const edited = res.json().comment as Comment;
    expect(edited).toMatchObject({
      id: created.id,
      content: 'Version corrigée',
      isEdited: true,
      createdAt: created.createdAt,
    });
    expect(Date.parse(edited.updatedAt)).toBeGreaterThan(Date.parse(created.updatedAt));
    expect((await list(post.id))[0]).toMatchObject({ content: 'Version corrigée', isEdited: true });
    expect(await counts(post.id)).toEqual({ stored: 1, actual: 1 });
  });

  it('lets the author delete a comment, and the count goes down', async () => {
    const post = await publish(t, (await member(t)).token);
    const kept = (await add(chloe.token, post.id, 'Je reste')).json().comment as Comment;
    const gone = (await add(bob.token, post.id, 'Je pars')).json().comment as Comment;
    const res = await remove(bob.token, gone.id);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ commentsCount: 1 });
    expect((await list(post.id)).map((c) => c.id)).toEqual([kept.id]);
    expect((await feedPost(post.id)).commentsCount).toBe(1);
    expect(await counts(post.id)).toEqual({ stored: 1, actual: 1 });
    const again = await remove(bob.token, gone.id);
    expect(again.statusCode).toBe(404);
    expect(again.json().error.message).toBe('Commentaire non trouvé');
  });

  it("refuses to edit or delete someone else's comment, or a missing one", async () => {
    const post = await publish(t, (await member(t)).token);
    const theirs = (await add(bob.token, post.id, 'À moi')).json().comment as Comment;
    for (const res of [await edit(chloe.token, theirs.id, 'Piraté'), await remove(chloe.token, theirs.id)]) {
      expect(res.statusCode).toBe(403);
      expect(res.json().error.message).toBe('Accès refusé : permissions insuffisantes');
    }
    // Not even the post's author.
    expect((await remove(author.token, theirs.id)).statusCode).toBe(403);
    expect((await edit('', theirs.id, 'Piraté')).statusCode).toBe(401);
    expect((await remove('', theirs.id)).statusCode).toBe(401);
    expect((await list(post.id))[0]).toMatchObject({ id: theirs.id, content: 'À moi', isEdited: false });
    expect(await counts(post.id)).toEqual({ stored: 1, actual: 1 });

    const missing = '00000000-0000-4000-8000-000000000000';
    for (const res of [await edit(bob.token, missing, 'x'), await remove(bob.token, missing)]) {
      expect(res.statusCode).toBe(404);
      expect(res.json().error).toEqual({ code: 'comment_not_found', message: 'Commentaire non trouvé' });
    }
  });

  it('refuses blank, too long and dangerous comments, and a signed-out caller', async () => {
    const post = await publish(t, (await member(t)).token);
    const cases: Array<[unknown, string]> = [
      ['', 'Le commentaire ne peut pas être vide'],
      ['    ', 'Le commentaire ne peut pas être vide'],
      [undefined, 'Le commentaire ne peut pas être vide'],
      ['<b></b>', 'Le commentaire ne peut pas être vide'],
      ['x'.repeat(501), 'Le commentaire ne doit pas dépasser 500 caractères'],
      ['<script>alert(1)</script>', 'Contenu non autorisé détecté'],
      ['<img src=x onerror=alert(1)>', 'Contenu non autorisé détecté'],
    ];
    for (const [content, message] of cases) {
      const res = await add(chloe.token, post.id, content);
      expect(res.statusCode, message).toBe(400);
      expect(res.json().error.message).toBe(message);
    }
    expect((await add(chloe.token, post.id, 'x'.repeat(500))).statusCode).toBe(201);
    const ok = (await list(post.id))[0];
    const res = await edit(chloe.token, ok.id, '   ');
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toBe('Le commentaire ne peut pas être vide');
    expect((await add('', post.id, 'Bonjour')).statusCode).toBe(401);
    expect(await counts(post.id)).toEqual({ stored: 1, actual: 1 });
  });

  it('refuses comments on an expired or deleted post', async () => {
    const owner = await member(t);
    const post = await publish(t, owner.token);
    const earlier = (await add(bob.token, post.id, 'Avant expiration')).json().comment as Comment;
    await expire(t, post.id);
    for (const res of [
      await add(bob.token, post.id, 'Trop tard'),
      await edit(bob.token, earlier.id, 'Trop tard'),
      await call(t, { method: 'GET', url: `/api/posts/${post.id}/comments` }),
    ]) {
      expect(res.statusCode).toBe(404);
      expect(res.json().error).toEqual({ code: 'post_not_found', message: 'Publication introuvable' });
    }
    expect(await counts(post.id)).toEqual({ stored: 1, actual: 1 });

    const other = await member(t);
    const deleted = await publish(t, other.token);
    expect((await call(t, { method: 'DELETE', url: `/api/posts/${deleted.id}`, token: other.token })).statusCode).toBe(
      204,
    );
    const res = await add(bob.token, deleted.id, 'Où est-elle ?');
    expect(res.statusCode).toBe(404);
    expect(res.json().error.message).toBe('Publication introuvable');
  });

  it('keeps the count equal to the rows under concurrent adds and deletes', async () => {
    const post = await publish(t, (await member(t)).token);
    const people = await Promise.all(Array.from({ length: 10 }, () => member(t)));
    const added = await Promise.all(
      people.flatMap((p) => [add(p.token, post.id, `Salut de ${p.username}`), add(p.token, post.id, 'Deuxième')]),
    );
    expect(added.every((r) => r.statusCode === 201)).toBe(true);
    expect(await counts(post.id)).toEqual({ stored: 20, actual: 20 });
    const mine = added.filter((_, i) => i % 2 === 0).map((r) => r.json().comment as Comment);
    // Each comment deleted twice at once: one 200, one 404.
    const deletions = await Promise.all(
      mine.flatMap((c) => {
        const token = people.find((p) => p.id === c.userId)!.token;
        return [remove(token, c.id), remove(token, c.id)];
      }),
    );
    expect(deletions.filter((r) => r.statusCode === 200)).toHaveLength(10);
    expect(deletions.filter((r) => r.statusCode === 404)).toHaveLength(10);
    expect(await counts(post.id)).toEqual({ stored: 10, actual: 10 });
  }, 60_000);

  it('announces additions, edits and removals to the map', async () => {
    const author = await member(t);
    const post = await publish(t, author.token);
    const events: Array<{ type: string; data: Record<string, unknown> }> = [];
    const stop = t.app.ctx.bus.subscribe((e) => events.push(e as (typeof events)[number]));
    const comment = (await add(bob.token, post.id, 'Coucou')).json().comment as Comment;
    const edited = (await edit(bob.token, comment.id, 'Coucou !')).json().comment as Comment;
    await remove(bob.token, comment.id);
    await expect.poll(() => events.filter((e) => e.type === 'post.commented').length).toBe(3);
    stop();
    expect(events.filter((e) => e.type === 'post.commented')).toEqual([
      {
        type: 'post.commented',
        data: { postId: post.id, commentsCount: 1, comment },
        at: SAINT_DENIS,
        about: [bob.id, author.id],
      },
      {
        type: 'post.commented',
        data: { postId: post.id, commentsCount: 1, comment: edited },
        at: SAINT_DENIS,
        about: [bob.id, author.id],
      },
      {
        type: 'post.commented',
        data: { postId: post.id, commentsCount: 0, removedCommentId: comment.id },
        at: SAINT_DENIS,
        about: [bob.id, author.id],
      },
    ]);
  });

  it('limits one person to 30 comments a minute', async () => {
    const post = await publish(t, (await member(t)).token);
    const chatty = await member(t);
    for (let i = 0; i < 30; i++) expect((await add(chatty.token, post.id, `Message ${i}`)).statusCode).toBe(201);
    const res = await add(chatty.token, post.id, 'Un de trop');
    expect(res.statusCode).toBe(429);
    expect(res.json().error.message).toBe('Trop de commentaires. Veuillez patienter.');
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    expect((await add(bob.token, post.id, 'Moi je peux')).statusCode).toBe(201);
    t.clock.advance(2 * 60_000);
    expect((await add(chatty.token, post.id, 'Après la pause')).statusCode).toBe(201);
  });
});
