/**
 * The moderation loop: reports hide a post at the threshold, a moderator decides with
 * a reason, reporters and author are told (in-app and by e-mail), the author appeals once, a
 * different moderator decides the appeal, a reversal restores the post and lifts a suspension;
 * suspensions stop posts, comments and messages with a French error until their end.
 */
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { acceptTermsInForce, call, countMails, login, waitForMail } from '../helpers/auth.ts';
import { engines } from '../helpers/databases.ts';
import { suiteAuthApp } from '../helpers/suite-app.ts';
import { member, publish, SAINT_DENIS, type Member } from '../interactions/fixtures.ts';
import { as, staff } from './fixtures.ts';

const VIEW = { west: 55.4, south: -20.9, east: 55.5, north: -20.8, zoom: 13 };
const DAY = 86_400_000;

describe.each(engines)('moderation on %s', (engine) => {
  const t = suiteAuthApp(engine);
  let mod: Member;
  let mod2: Member;
  beforeAll(async () => {
    mod = await staff(t, 'moderator');
    mod2 = await staff(t, 'admin');
  });

  /** The viewport's ids. On PostgreSQL the cache hears of a change through LISTEN/NOTIFY, a moment after the answer: poll. */
  const viewportIds = async (token?: string) => {
    const res = await call(t, {
      method: 'GET',
      url: `/api/posts/viewport?${new URLSearchParams(Object.entries(VIEW).map(([k, v]): [string, string] => [k, String(v)]))}`,
      token,
    });
    return (res.json().points as Array<{ id: string }>).map((p) => p.id);
  };
  /** Each report from its own /24, by an account two days old: one that counts toward hiding. */
  let network = 0;
  const report = async (who: Member, postId: string) => {
    await t.database.db.execute(sql`update users set created_at = now() - interval '2 days' where id = ${who.id}`);
    network += 1;
    return call(t, {
      method: 'POST',
      url: `/api/posts/${postId}/report`,
      token: who.token,
      ip: `10.${network >> 8}.${network & 255}.1`,
      payload: { reason: 'harassment', details: 'Insultes' },
    });
  };
  const decide = (who: Member, postId: string, payload: Record<string, unknown>) =>
    as(t, who, { method: 'POST', url: `/api/moderation/posts/${postId}/decision`, payload });
  const notices = async (who: Member) => (await as(t, who, { method: 'GET', url: '/api/moderation/notices' })).json();
  /** A new access token for `who` (after the clock moved past the old one's 15 minutes). */
  async function relogin(who: Member): Promise<Member> {
    const [row] = (await t.database.db.execute(sql`select email from users where id = ${who.id}`)).rows as Array<{
      email: string;
    }>;
    return { ...who, token: (await login(t, row!.email, 'Soleil2024')).accessToken };
  }

  /** A fresh author with a live post reported by `n` people. */
  async function reported(n: number) {
    const author = await member(t, `auteur${Math.floor(Math.random() * 1e6)}`);
    const post = await publish(t, author.token, { content: 'Texte signalé' });
    const reporters: Member[] = [];
    for (let i = 0; i < n; i++) {
      const r = await member(t);
      expect((await report(r, post.id)).statusCode).toBe(201);
      reporters.push(r);
    }
    return { author, post, reporters };
  }

  it('hides a post from the map for everyone once 3 distinct people reported it', async () => {
    const { author, post, reporters } = await reported(2);
    expect(await viewportIds()).toContain(post.id);
    const third = await member(t);
    await report(third, post.id);
    await expect.poll(() => viewportIds()).not.toContain(post.id);
    await expect.poll(() => viewportIds(author.token)).not.toContain(post.id);
    expect((await call(t, { method: 'GET', url: `/api/posts/${post.id}` })).statusCode).toBe(404);
    // The queue shows it grouped, with the snapshot, the author and the three reporters.
    const queue = (await as(t, mod, { method: 'GET', url: '/api/moderation/queue' })).json();
    const group = queue.reports.find((g: { postId: string }) => g.postId === post.id);
    expect(group).toMatchObject({
      postState: 'pending',
      count: 3,
      snapshot: { content: 'Texte signalé' },
      author: { id: author.id },
    });
    expect(group.reasons).toEqual([{ key: 'harassment', label: 'Harcèlement', count: 3 }]);
    expect(group.reporters.map((r: { id: string }) => r.id).sort()).toEqual(
      [...reporters.map((r) => r.id), third.id].sort(),
    );
    // Dismissed: back on the map; reporters are told nothing was wrong.
    const res = await decide(mod, post.id, { action: 'dismiss', reason: 'no_violation' });
    expect(res.statusCode, res.body).toBe(200);
    await expect.poll(() => viewportIds()).toContain(post.id);
    const told = await notices(third);
    expect(told.notices[0]).toMatchObject({ kind: 'report_outcome', title: 'Suite donnée à votre signalement' });
    expect(told.notices[0].lines[0]).toContain("nous n'avons pas relevé d'infraction");
    expect((await notices(author)).notices).toEqual([]);
  });

  it('requires a reason from the list, and a length for a suspension', async () => {
    const { post } = await reported(1);
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ action: 'remove' }, 'Veuillez choisir un motif'],
      [{ action: 'remove', reason: 'boring' }, 'Veuillez choisir un motif'],
      [{ action: 'suspend', reason: 'spam' }, 'Veuillez choisir une durée de suspension (1, 7 ou 30 jours)'],
      [{ action: 'suspend', reason: 'spam', days: 3 }, 'Veuillez choisir une durée de suspension (1, 7 ou 30 jours)'],
      [{ action: 'remove', reason: 'spam', note: 'x'.repeat(1001) }, 'La note ne doit pas dépasser 1000 caractères'],
    ];
    for (const [payload, message] of cases) {
      const res = await decide(mod, post.id, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().error.message).toBe(message);
    }
  });

  it('removes a post, tells reporters and author (statement of reasons, e-mails), and an appeal decided by another moderator restores it', async () => {
    const { author, post, reporters } = await reported(1);
    const res = await decide(mod, post.id, { action: 'warn', reason: 'harassment', note: 'Propos insultants' });
    expect(res.statusCode, res.body).toBe(200);
    const decision = res.json().decision;
    expect(decision).toMatchObject({
      action: 'warn',
      reason: 'harassment',
      moderatorId: mod.id,
      authorId: author.id,
      reversed: false,
    });
    await expect.poll(() => viewportIds()).not.toContain(post.id);
    // Second decision on the same reports: nothing open any more.
    expect((await decide(mod2, post.id, { action: 'remove', reason: 'spam' })).statusCode).toBe(404);

    const reporterNotice = (await notices(reporters[0]!)).notices[0];
    expect(reporterNotice.lines[0]).toBe(
      'Merci pour votre signalement. Après examen, la publication a été retirée : « Harcèlement ou intimidation ».',
    );
    const statement = (await notices(author)).notices[0];
    expect(statement).toMatchObject({
      kind: 'statement',
      title: 'Exposé des motifs',
      canAppeal: true,
      decisionId: decision.id,
    });
    expect(statement.lines).toContain("Ce qui a été décidé : Retirer et avertir l'auteur.");
    expect(statement.lines).toContain('Précision du modérateur : Propos insultants');
    expect(statement.lines.at(-1)).toMatch(/^Vous pouvez contester cette décision une fois, jusqu'au .+2027/);
    const [authorMail] = (await t.database.db.execute(sql`select email from users where id = ${author.id}`))
      .rows as Array<{ email: string }>;
    await expect
      .poll(() => countMails(t, authorMail!.email, 'MoodMap : décision de modération — Exposé des motifs'))
      .toBe(1);

    // The author appeals once.
    const appealUrl = `/api/moderation/decisions/${decision.id}/appeal`;
    expect(
      (await as(t, reporters[0]!, { method: 'POST', url: appealUrl, payload: { statement: 'Moi aussi' } })).statusCode,
    ).toBe(404);
    expect(
      (await as(t, author, { method: 'POST', url: appealUrl, payload: { statement: '' } })).json().error.message,
    ).toBe('Veuillez expliquer votre recours');
    const filed = await as(t, author, {
      method: 'POST',
      url: appealUrl,
      payload: { statement: "C'était de l'humour entre amis" },
    });
    expect(filed.statusCode, filed.body).toBe(201);
    const again = await as(t, author, { method: 'POST', url: appealUrl, payload: { statement: 'Encore' } });
    expect(again.statusCode).toBe(409);
    expect(again.json().error.message).toBe('Vous avez déjà fait appel de cette décision');
    expect((await notices(author)).notices[0]).toMatchObject({ canAppeal: false, appealStatus: 'open' });

    // The moderator who decided cannot decide the appeal; another one reverses it.
    const appealId = filed.json().appeal.id;
    const queue = (await as(t, mod, { method: 'GET', url: '/api/moderation/queue' })).json();
    expect(queue.appeals.find((a: { id: string }) => a.id === appealId)).toMatchObject({
      decidedByYou: true,
      statement: "C'était de l'humour entre amis",
    });
    const same = await as(t, mod, {
      method: 'POST',
      url: `/api/moderation/appeals/${appealId}/decision`,
      payload: { outcome: 'reverse' },
    });
    expect(same.statusCode).toBe(403);
    expect(same.json().error.message).toBe(
      'Un recours doit être examiné par un autre modérateur que celui qui a décidé',
    );
    const reversed = await as(t, mod2, {
      method: 'POST',
      url: `/api/moderation/appeals/${appealId}/decision`,
      payload: { outcome: 'reverse', note: 'Contexte humoristique' },
    });
    expect(reversed.statusCode, reversed.body).toBe(200);
    expect(reversed.json().appeal).toMatchObject({ status: 'reversed', decision: { reversed: true } });
    await expect.poll(() => viewportIds()).toContain(post.id);
    expect(
      (
        await as(t, mod2, {
          method: 'POST',
          url: `/api/moderation/appeals/${appealId}/decision`,
          payload: { outcome: 'uphold' },
        })
      ).statusCode,
    ).toBe(409);
    const outcome = (await notices(author)).notices.find((n: { kind: string }) => n.kind === 'appeal_outcome');
    expect(outcome).toMatchObject({ kind: 'appeal_outcome', appealStatus: 'reversed' });
    expect(outcome.lines[0]).toContain('la décision est annulée');
    // Every staff action is in the audit trail with actor, target and reason.
    const audit = (
      await t.database.db.execute(sql`select event_type, user_id, target_id, reason from security_logs
      where event_type in ('moderation_decision', 'appeal_decision') and target_id = ${author.id} order by created_at`)
    ).rows;
    expect(audit).toEqual([
      { event_type: 'moderation_decision', user_id: mod.id, target_id: author.id, reason: 'Propos insultants' },
      { event_type: 'appeal_decision', user_id: mod2.id, target_id: author.id, reason: 'Contexte humoristique' },
    ]);
  });

  it('refuses an appeal after 6 months', async () => {
    const { author, post } = await reported(1);
    const decision = (await decide(mod, post.id, { action: 'remove', reason: 'spam' })).json().decision;
    t.clock.advance(184 * DAY);
    try {
      const res = await as(t, await relogin(author), {
        method: 'POST',
        url: `/api/moderation/decisions/${decision.id}/appeal`,
        payload: { statement: 'Trop tard ?' },
      });
      expect(res.statusCode).toBe(409);
      expect(res.json().error.message).toBe('Le délai de recours de 6 mois est dépassé');
    } finally {
      t.clock.advance(-184 * DAY);
    }
  });

  it('a suspension stops posting, commenting and messaging with a French error, is shown at sign-in, and lifts at its end', async () => {
    const { author, post } = await reported(1);
    const other = await member(t);
    const otherPost = await publish(t, other.token, { latitude: SAINT_DENIS.latitude - 0.01 });
    const conversation = (
      await call(t, { method: 'POST', url: '/api/conversations', token: author.token, payload: { userId: other.id } })
    ).json().conversation;
    const res = await decide(mod, post.id, { action: 'suspend', reason: 'harassment', days: 7 });
    expect(res.statusCode, res.body).toBe(200);

    const attempts = (token: string) =>
      Promise.all([
        call(t, {
          method: 'POST',
          url: '/api/posts',
          token,
          payload: { category: 'happy', content: 'Encore moi', ...SAINT_DENIS },
        }),
        call(t, { method: 'POST', url: `/api/posts/${otherPost.id}/comments`, token, payload: { content: 'Coucou' } }),
        call(t, {
          method: 'POST',
          url: `/api/conversations/${conversation.id}/messages`,
          token,
          payload: { content: 'Salut' },
        }),
      ]);
    for (const r of await attempts(author.token)) {
      expect(r.statusCode, r.body).toBe(403);
      expect(r.json().error.code).toBe('account_suspended');
      expect(r.json().error.message).toMatch(
        /^Votre compte est suspendu jusqu'au \d{1,2} \S+ \d{4} à \d{2}:\d{2}\. Vous ne pouvez ni publier, ni commenter, ni envoyer de message\.$/,
      );
    }
    const [row] = (await t.database.db.execute(sql`select email from users where id = ${author.id}`)).rows as Array<{
      email: string;
    }>;
    const session = await login(t, row!.email, 'Soleil2024');
    expect(Date.parse(String((session.user as Record<string, unknown>).suspendedUntil))).toBeGreaterThan(
      t.clock.now().getTime() + 6 * DAY,
    );
    expect((await notices(author)).suspendedUntil).toBe((session.user as Record<string, unknown>).suspendedUntil);

    t.clock.advance(7 * DAY + 60_000);
    try {
      const later = await relogin(author);
      await acceptTermsInForce(t, later.token);
      const [p, c, m] = await attempts(later.token);
      expect(p!.statusCode, p!.body).toBe(201);
      expect(c!.statusCode, c!.body).toBe(201);
      expect(m!.statusCode, m!.body).toBe(201);
      expect((await notices(later)).suspendedUntil).toBeNull();
    } finally {
      t.clock.advance(-(7 * DAY + 60_000));
    }
  });

  it('a ban closes the account: no sign-in; a reversal on appeal reopens it', async () => {
    const { author, post } = await reported(1);
    const [row] = (await t.database.db.execute(sql`select email from users where id = ${author.id}`)).rows as Array<{
      email: string;
    }>;
    const decision = (await decide(mod, post.id, { action: 'ban', reason: 'illegal' })).json().decision;
    const refused = await call(t, {
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: row!.email, password: 'Soleil2024' },
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.message).toBe('Votre compte a été banni pour non-respect des règles de la communauté.');
    // Banned, the author appeals through the link of the statement's e-mail, without signing in.
    const mail = await waitForMail(t, row!.email, 'MoodMap : décision de modération — Exposé des motifs');
    const link = /(https?:\/\/\S+\/appeal\?token=\S+)/.exec(mail!.text)?.[1];
    expect(link).toBeDefined();
    const token = new URL(link!).searchParams.get('token')!;
    const read = await call(t, {
      method: 'GET',
      url: `/api/moderation/appeal-link?token=${encodeURIComponent(token)}`,
    });
    expect(read.statusCode, read.body).toBe(200);
    expect(read.json()).toMatchObject({ title: 'Exposé des motifs', canAppeal: true, appealStatus: null });
    expect(read.json().lines).toContain("Ce qui a été décidé : Bannir l'auteur.");
    // A token for another decision, or altered, names nothing.
    const [id, mac] = token.split('.');
    for (const bad of [`${id}.${mac!.slice(1)}x`, `${decision.id === id ? post.id : decision.id}.${mac}`, 'x', '']) {
      const res = await call(t, {
        method: 'POST',
        url: '/api/moderation/appeal-link',
        payload: { token: bad, statement: 'Erreur' },
      });
      expect(res.statusCode).toBe(404);
      expect(res.json().error.message).toBe("Ce lien de recours n'est pas valide");
    }
    const filed = await call(t, {
      method: 'POST',
      url: '/api/moderation/appeal-link',
      payload: { token, statement: "Je n'ai rien publié d'illégal" },
    });
    expect(filed.statusCode, filed.body).toBe(201);
    // Once only, as with the button.
    const replay = await call(t, {
      method: 'POST',
      url: '/api/moderation/appeal-link',
      payload: { token, statement: 'Encore' },
    });
    expect(replay.statusCode).toBe(409);
    expect(replay.json().error.message).toBe('Vous avez déjà fait appel de cette décision');
    expect(
      (await call(t, { method: 'GET', url: `/api/moderation/appeal-link?token=${encodeURIComponent(token)}` })).json(),
    ).toMatchObject({ canAppeal: false, appealStatus: 'open' });
    // Another moderator finds it in the queue and reverses the ban.
    const queue = (await as(t, mod2, { method: 'GET', url: '/api/moderation/queue' })).json();
    const appeal = queue.appeals.find((a: { decision: { id: string } }) => a.decision.id === decision.id);
    expect(appeal).toMatchObject({ statement: "Je n'ai rien publié d'illégal" });
    expect(
      (
        await as(t, mod2, {
          method: 'POST',
          url: `/api/moderation/appeals/${appeal.id}/decision`,
          payload: { outcome: 'reverse' },
        })
      ).statusCode,
    ).toBe(200);
    expect(
      (
        await call(t, {
          method: 'POST',
          url: '/api/auth/login',
          payload: { email: row!.email, password: 'Soleil2024' },
        })
      ).statusCode,
    ).toBe(200);
  });
});
