import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { foldForSearch } from '@moodmap/core';
import { call } from '../helpers/auth.ts';
import { engines } from '../helpers/databases.ts';
import { suiteAuthApp } from '../helpers/suite-app.ts';
import { expire, insertPost, member, publish, type Member } from './fixtures.ts';

interface Result {
  id: string;
  category: string;
  content: string;
  nickname: string;
  createdAt: string;
  isLikedByUser: boolean;
  author: { username: string };
}

describe.each(engines)('search on %s', (engine) => {
  const t = suiteAuthApp(engine);
  let bulk: Member;
  beforeAll(async () => {
    bulk = await member(t, 'Rédaction');
  });

  const search = (params: Record<string, string>, options: { token?: string; ip?: string } = {}) =>
    call(t, { method: 'GET', url: `/api/search?${new URLSearchParams(params)}`, ...options });
  async function find(q: string, moods?: string, token?: string): Promise<Result[]> {
    const res = await search(moods === undefined ? { q } : { q, moods }, { token });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().results as Result[];
  }
  const ids = (results: Result[]) => results.map((r) => r.id);

  it('matches content whatever the accents and the case', async () => {
    const musique = await insertPost(t, bulk.id, { content: 'Fête de la Musique sur le front de mer' });
    const ete = await insertPost(t, bulk.id, { content: 'Un bel été austral, enfin' });
    const coeur = await insertPost(t, bulk.id, { content: 'Mon cœur bat pour l’île' });
    expect(ids(await find('fete de la musique'))).toEqual([musique]);
    expect(ids(await find('FÊTE DE LA MUSIQUE'))).toEqual([musique]);
    expect(ids(await find('ÉTÉ AUSTRAL'))).toEqual([ete]);
    expect(ids(await find('ete austral'))).toEqual([ete]);
    expect(ids(await find('coeur bat'))).toEqual([coeur]);
    expect(ids(await find("pour l'ile"))).toEqual([coeur]);
    // Decomposed accents (e + combining acute) fold the same way.
    expect(ids(await find('e\u0301te\u0301 austral'))).toEqual([ete]);
    expect(foldForSearch('Fête ÉTÉ Cœur')).toBe('fete ete coeur');
  });

  it("matches the author's current username and the post's nickname", async () => {
    const zephyrine = await member(t, 'Zéphyrine');
    const post = await publish(t, zephyrine.token, { content: 'Bonjour tout le monde' });
    expect(ids(await find('zephyrine'))).toEqual([post.id]);
    // A post keeps the nickname it was published under; the author may have changed since.
    const renamed = await insertPost(t, bulk.id, { content: 'Rien à signaler', nickname: 'Ancien Pseudo Xylophone' });
    expect(ids(await find('xylophone'))).toEqual([renamed]);
    await t.database.db.execute(sql`update profiles set username = 'Zoé Nouvelle' where id = ${zephyrine.id}`);
    expect(ids(await find('zoe nouvelle'))).toEqual([post.id]);
  });

  it('matches the mood label among the selected moods only', async () => {
    const party = await insertPost(t, bulk.id, { category: 'party', content: 'Soirée sur la plage' });
    const results = await find('fête');
    expect(ids(results)).toContain(party);
    expect(
      results.every(
        (r) =>
          r.category === 'party' || foldForSearch(`${r.content} ${r.nickname} ${r.author.username}`).includes('fete'),
      ),
    ).toBe(true);
    expect(ids(await find('FETE', 'party'))).toContain(party);
    expect(ids(await find('fête', 'happy,love'))).not.toContain(party);
    const love = await insertPost(t, bulk.id, { category: 'love', content: 'Coucher de soleil' });
    expect(ids(await find('amour', 'love'))).toContain(love);
    expect(ids(await find('amour', 'happy'))).not.toContain(love);
  });

  it('keeps to the selected moods; unknown moods are ignored and none means all five', async () => {
    // Distinct ages: posts written in the same millisecond would have no newest-first order.
    const happy = await insertPost(t, bulk.id, { category: 'happy', content: 'Kiwimood du jour', ageMinutes: 3 });
    const love = await insertPost(t, bulk.id, { category: 'love', content: 'Kiwimood du soir', ageMinutes: 2 });
    const angry = await insertPost(t, bulk.id, { category: 'angry', content: 'Kiwimood de la nuit', ageMinutes: 1 });
    expect(ids(await find('kiwimood'))).toEqual([angry, love, happy]);
    expect(ids(await find('kiwimood', 'love'))).toEqual([love]);
    expect(ids(await find('kiwimood', 'happy,angry'))).toEqual([angry, happy]);
    expect(ids(await find('kiwimood', 'love,sad'))).toEqual([love]);
    expect(ids(await find('kiwimood', 'sad'))).toEqual([angry, love, happy]);
    expect(ids(await find('kiwimood', ''))).toEqual([angry, love, happy]);
    const repeated = await call(t, { method: 'GET', url: '/api/search?q=kiwimood&moods=love&moods=angry' });
    expect(ids(repeated.json().results)).toEqual([angry, love]);
  });

  it('answers at most 10 results, newest first, from live posts only', async () => {
    const posts: string[] = [];
    for (let i = 0; i < 12; i++)
      posts.push(await insertPost(t, bulk.id, { content: `Plafond numéro ${i}`, ageMinutes: i }));
    const results = await find('plafond');
    expect(ids(results)).toEqual(posts.slice(0, 10));
    const times = results.map((r) => Date.parse(r.createdAt));
    expect([...times].sort((a, b) => b - a)).toEqual(times);

    const expired = await insertPost(t, bulk.id, { content: 'Périmée depuis hier' });
    expect(ids(await find('perimee'))).toEqual([expired]);
    await expire(t, expired);
    expect(await find('perimee')).toEqual([]);
  });

  it('takes 2 to 100 characters after trimming', async () => {
    const cases: Array<Record<string, string>> = [{}, { q: '' }, { q: 'a' }, { q: '  a  ' }, { q: 'x'.repeat(101) }];
    for (const params of cases) {
      const res = await search(params);
      expect(res.statusCode, JSON.stringify(params)).toBe(400);
      expect(res.json().error).toEqual({
        code: 'search_length',
        message: 'La recherche doit contenir entre 2 et 100 caractères',
      });
    }
    expect((await search({ q: 'ab' })).statusCode).toBe(200);
    expect((await search({ q: ` ${'x'.repeat(100)} ` })).statusCode).toBe(200);
  });

  it('treats %, _ and \\ in the query as plain characters', async () => {
    const percent = await insertPost(t, bulk.id, { content: 'Soldes à 100% wildtok' });
    await insertPost(t, bulk.id, { content: 'Soldes à 1000 wildtok' });
    const underscore = await insertPost(t, bulk.id, { content: 'fichier mon_wildtok' });
    await insertPost(t, bulk.id, { content: 'fichier monxwildtok' });
    const backslash = await insertPost(t, bulk.id, { content: 'chemin c:\\wildtok' });
    expect(ids(await find('0% wildtok'))).toEqual([percent]);
    expect(ids(await find('%%'))).toEqual([]);
    expect(ids(await find('n_wildtok'))).toEqual([underscore]);
    expect(ids(await find(':\\wildtok'))).toEqual([backslash]);
  });

  it("does not find a voice-only post by its hidden 'Message vocal' text", async () => {
    const voice = await insertPost(t, bulk.id, { content: 'Message vocal' });
    expect(ids(await find('message vocal'))).toContain(voice);
    await t.database.db.execute(
      sql`update publications set audio_url = 'https://cdn.test/voice.webm', audio_duration = 3 where id = ${voice}`,
    );
    expect(ids(await find('message vocal'))).not.toContain(voice);
  });

  it('tells a signed-in caller which results they liked', async () => {
    const fan = await member(t);
    const post = await insertPost(t, bulk.id, { content: 'Jolie tortue marine' });
    await call(t, { method: 'POST', url: `/api/posts/${post}/like`, token: fan.token });
    expect((await find('tortue marine', undefined, fan.token))[0]).toMatchObject({ id: post, isLikedByUser: true });
    expect((await find('tortue marine'))[0]).toMatchObject({ id: post, isLikedByUser: false });
  });

  it('limits search to 200 an hour per person, or per address for visitors', async () => {
    const ip = '203.0.113.77';
    for (let i = 0; i < 200; i++) expect((await search({ q: 'limite' }, { ip })).statusCode).toBe(200);
    const blocked = await search({ q: 'limite' }, { ip });
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().error.message).toBe('Trop de recherches. Veuillez patienter.');
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    // A signed-in person counts on their own, even from that address.
    const someone = await member(t);
    expect((await search({ q: 'limite' }, { ip, token: someone.token })).statusCode).toBe(200);
  }, 60_000);
});
