/**
 * Profiles API: public reads expose public fields only, the owner edits nickname
 * (30-day cooldown on the app's clock) and bio, and replaces or removes the photo; nothing else
 * of a profile can be set through a request body.
 */
import { sql } from 'drizzle-orm';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { acceptTermsInForce, call, createUser, login } from '../helpers/auth.ts';
import { engines } from '../helpers/databases.ts';
import { suiteAuthApp } from '../helpers/suite-app.ts';
import { expire, insertPost, publish } from '../interactions/fixtures.ts';
import { multipart, photo, png } from '../media/fixtures.ts';

const DAY = 24 * 60 * 60 * 1000;
const PUBLIC_KEYS = [
  'avatarUrl',
  'bio',
  'createdAt',
  'id',
  'isMulti',
  'isPlus',
  'isPremium',
  'isPro',
  'profilePhotoUrl',
  'username',
];

describe.each(engines)('profiles on %s', (engine) => {
  const t = suiteAuthApp(engine);

  interface Person {
    id: string;
    email: string;
    password: string;
    token: string;
    username: string;
  }

  async function person(nickname = 'Léa'): Promise<Person> {
    const user = await createUser(t, { metadata: { nickname, first_name: 'Léa', last_name: 'Martin' } });
    const session = await login(t, user.email, user.password);
    return { ...user, token: session.accessToken, username: session.user.profile.username };
  }
  /** A fresh access token (after the clock moved past the old one's 15 minutes). */
  const signIn = async (p: Person) => (await login(t, p.email, p.password)).accessToken;

  const patch = (token: string, payload: unknown) =>
    call(t, { method: 'PATCH', url: '/api/profiles/me', token, payload: payload as object });
  const upload = (
    token: string,
    file: { filename: string; contentType: string; body: Buffer },
    extra: Array<{ name: string; value: string }> = [],
  ) => {
    const form = multipart([...extra, { name: 'file', file }]);
    return call(t, {
      method: 'POST',
      url: '/api/profiles/me/photo',
      token,
      payload: form.payload,
      headers: form.headers,
    });
  };
  const jpeg = async (options: { gps?: boolean } = {}) => ({
    filename: 'moi.jpg',
    contentType: 'image/jpeg',
    body: await photo(900, 600, options),
  });
  const media = (url: string) => t.app.inject(url);

  async function row(id: string) {
    const result = await t.database.db.execute(sql`
      select p.username, p.bio, p.profile_photo_url, p.avatar_url, p.is_premium, p.is_pro, p.is_plus, p.is_multi,
             p.pulse_credits, p.username_changes_count, p.last_username_change, p.first_name, p.phone_number, p.date_of_birth,
             u.email, coalesce(r.role, 'user') as role
      from profiles p join users u on u.id = p.id left join staff_roles r on r.user_id = p.id
      where p.id = ${id}`);
    return result.rows[0] as Record<string, unknown>;
  }

  describe('signed out', () => {
    it('answers 401 to every write', async () => {
      const form = multipart([{ name: 'file', file: await jpeg() }]);
      const responses = [
        await patch('', { bio: 'Salut' }),
        await call(t, { method: 'POST', url: '/api/profiles/me/photo', payload: form.payload, headers: form.headers }),
        await call(t, { method: 'DELETE', url: '/api/profiles/me/photo' }),
        await patch('not-a-token', { nickname: 'Intrus' }),
      ];
      for (const res of responses) {
        expect(res.statusCode).toBe(401);
        expect(res.json().error).toEqual({ code: 'not_authenticated', message: 'User not authenticated' });
      }
    });
  });

  describe('nickname', () => {
    it('refuses each broken rule with its text, and keeps the old name', async () => {
      const p = await person('Léa');
      const cases: Array<[unknown, string]> = [
        ['a', 'Le pseudo doit contenir entre 2 et 50 caractères'],
        ['  b  ', 'Le pseudo doit contenir entre 2 et 50 caractères'],
        ['x'.repeat(51), 'Le pseudo doit contenir entre 2 et 50 caractères'],
        [
          'Léa <3',
          'Le pseudo ne peut contenir que des lettres, des chiffres, des espaces, des tirets (-) et des tirets bas (_)',
        ],
        [
          "Robert'); DROP TABLE profiles;--",
          'Le pseudo ne peut contenir que des lettres, des chiffres, des espaces, des tirets (-) et des tirets bas (_)',
        ],
        ['123456', 'Le pseudo ne peut pas être composé uniquement de chiffres'],
        ['974 - 2024', 'Le pseudo ne peut pas être composé uniquement de chiffres'],
        ['-_-', "Le pseudo ne peut pas être composé uniquement d'espaces, de tirets ou de tirets bas"],
        ['  Léa  ', "Le nouveau pseudo doit être différent de l'actuel"],
        [12, 'Requête invalide'],
      ];
      for (const [nickname, message] of cases) {
        const res = await patch(p.token, { nickname });
        expect(res.statusCode, String(nickname)).toBe(400);
        expect(res.json().error.message, String(nickname)).toBe(message);
      }
      expect(await row(p.id)).toMatchObject({ username: 'Léa', username_changes_count: 0, last_username_change: null });
    });

    it('stores the trimmed name, counts the change, answers the session view and tells the maps', async () => {
      const p = await person('Léa');
      const events: unknown[] = [];
      const stop = t.app.ctx.bus.subscribe((e) => events.push(e));
      const res = await patch(p.token, { nickname: '  Zoé_974 Ñandú-Ké  ' });
      expect(res.statusCode).toBe(200);
      const { user } = res.json();
      expect(user.profile).toMatchObject({
        username: 'Zoé_974 Ñandú-Ké',
        usernameChangesCount: 1,
        lastUsernameChange: t.clock.now().toISOString(),
      });
      // The owner's view is exactly the session's.
      const session = await call(t, { method: 'GET', url: '/api/auth/session', token: p.token });
      expect(session.json().user).toEqual(user);
      await expect
        .poll(() => events)
        .toContainEqual({
          type: 'profile.updated',
          data: { userId: p.id, username: 'Zoé_974 Ñandú-Ké', photoUrl: null },
          about: [p.id],
        });
      stop();
    });

    it('allows one change per 30 days by the clock, and says when the next one is allowed', async () => {
      const p = await person('Léa');
      const first = await patch(p.token, { nickname: 'Premier' });
      expect(first.statusCode).toBe(200);
      const changedAt = new Date(first.json().user.profile.lastUsernameChange as string);
      const nextAllowedAt = new Date(changedAt.getTime() + 30 * DAY).toISOString();

      const again = await patch(p.token, { nickname: 'Deuxième' });
      expect(again.statusCode).toBe(409);
      expect(again.json()).toEqual({
        error: { code: 'nickname_blocked', message: 'Vous avez déjà modifié votre pseudo ce mois-ci.', nextAllowedAt },
      });

      t.clock.advance(29 * DAY);
      const token = await signIn(p);
      await acceptTermsInForce(t, token);
      const blocked = await patch(token, { nickname: 'Deuxième', bio: 'Ne doit pas passer' });
      expect(blocked.statusCode).toBe(409);
      expect(blocked.json().error.nextAllowedAt).toBe(nextAllowedAt);
      // All or nothing: the bio sent with a refused nickname is not stored either.
      expect(await row(p.id)).toMatchObject({ username: 'Premier', bio: null, username_changes_count: 1 });

      // Exactly 30 days after the change: a new version of the terms may apply by then.
      t.clock.advance(changedAt.getTime() + 30 * DAY - t.clock.now().getTime());
      expect(t.clock.now().getTime() - changedAt.getTime()).toBe(30 * DAY);
      const later = await signIn(p);
      await acceptTermsInForce(t, later);
      const allowed = await patch(later, { nickname: 'Deuxième' });
      expect(allowed.statusCode).toBe(200);
      expect(allowed.json().user.profile).toMatchObject({
        username: 'Deuxième',
        usernameChangesCount: 2,
        lastUsernameChange: t.clock.now().toISOString(),
      });
    });

    it('lets only one of ten simultaneous changes through', async () => {
      const p = await person('Léa');
      const results = await Promise.all(
        Array.from({ length: 10 }, (_, i) => patch(p.token, { nickname: `Essai ${i}` })),
      );
      const statuses = results.map((r) => r.statusCode);
      expect(statuses.filter((s) => s === 200)).toHaveLength(1);
      expect(statuses.filter((s) => s === 409)).toHaveLength(9);
      expect(await row(p.id)).toMatchObject({ username_changes_count: 1 });
    });

    it('keeps the nickname stored on existing posts, while their author shows the new name', async () => {
      const p = await person('Léa');
      const post = await publish(t, p.token);
      expect((await patch(p.token, { nickname: 'Nouvelle' })).statusCode).toBe(200);
      const read = (await call(t, { method: 'GET', url: `/api/posts/${post.id}` })).json().post;
      expect(read).toMatchObject({ nickname: 'Léa', author: { username: 'Nouvelle' } });
    });
  });

  describe('bio', () => {
    it('accepts 500 characters, refuses 501, stores blank as null, strips markup, refuses attacks', async () => {
      const p = await person();
      const ok = await patch(p.token, { bio: 'é'.repeat(500) });
      expect(ok.statusCode).toBe(200);
      expect(ok.json().user.profile.bio).toBe('é'.repeat(500));

      const long = await patch(p.token, { bio: 'é'.repeat(501) });
      expect(long.statusCode).toBe(400);
      expect(long.json().error).toEqual({
        code: 'bio_too_long',
        message: 'La bio ne peut pas dépasser 500 caractères',
      });

      const attack = await patch(p.token, { bio: '<img src=x onerror=alert(1)>' });
      expect(attack.statusCode).toBe(400);
      expect(attack.json().error.message).toBe('Contenu non autorisé détecté');
      expect((await row(p.id)).bio).toBe('é'.repeat(500));

      expect((await patch(p.token, { bio: ' <b>Surfeuse</b> à Saint-Leu ' })).json().user.profile.bio).toBe(
        'Surfeuse à Saint-Leu',
      );
      expect((await patch(p.token, { bio: '' })).json().user.profile.bio).toBeNull();
      expect((await row(p.id)).bio).toBeNull();
      await patch(p.token, { bio: 'Encore' });
      expect((await patch(p.token, { bio: null })).json().user.profile.bio).toBeNull();
      // A bio change is not a nickname change.
      expect(await row(p.id)).toMatchObject({ username_changes_count: 0, last_username_change: null });
    });
  });

  describe('protected fields', () => {
    it('refuses a body that tries to set anything but nickname and bio, and changes nothing', async () => {
      const p = await person('Léa');
      const before = await row(p.id);
      const attempts: Array<Record<string, unknown>> = [
        { isPremium: true },
        { is_premium: true },
        { isPro: true },
        { isPlus: true },
        { isMulti: true },
        { pulseCredits: 1000 },
        { pulse_credits: 1000 },
        { role: 'admin' },
        { usernameChangesCount: 0 },
        { lastUsernameChange: null },
        { last_username_change: null },
        { email: 'pirate@example.fr' },
        { id: '00000000-0000-4000-8000-000000000000' },
        { username: 'Pirate' },
        { profilePhotoUrl: 'https://evil.example/x.png' },
        { avatarUrl: 'https://evil.example/x.png' },
        { phoneNumber: '0692000000' },
        { dateOfBirth: '2000-01-01' },
        { firstName: 'Pirate' },
        { createdAt: '2000-01-01T00:00:00Z' },
      ];
      for (const extra of attempts) {
        const res = await patch(p.token, { bio: 'Piratée', nickname: 'Pirate', ...extra });
        expect(res.statusCode, JSON.stringify(extra)).toBe(400);
        expect(res.json().error).toEqual({
          code: 'profile_field_not_editable',
          message: 'Seuls le pseudo et la bio peuvent être modifiés',
        });
      }
      const proto = await call(t, {
        method: 'PATCH',
        url: '/api/profiles/me',
        token: p.token,
        headers: { 'content-type': 'application/json' },
        payload: '{"bio":"x","__proto__":{"isPremium":true}}',
      });
      expect(proto.statusCode).toBe(400);
      // Fields sent beside the photo are ignored.
      const photoRes = await upload(p.token, await jpeg(), [
        { name: 'isPremium', value: 'true' },
        { name: 'pulseCredits', value: '99' },
        { name: 'role', value: 'admin' },
      ]);
      expect(photoRes.statusCode).toBe(200);
      // No other verb or path writes a profile.
      for (const method of ['PUT', 'POST'] as const) {
        expect(
          (await call(t, { method, url: '/api/profiles/me', token: p.token, payload: { isPremium: true } })).statusCode,
        ).toBe(404);
      }
      expect(
        (await call(t, { method: 'PATCH', url: `/api/profiles/${p.id}`, token: p.token, payload: { isPremium: true } }))
          .statusCode,
      ).toBe(404);

      const after = await row(p.id);
      expect({ ...after, profile_photo_url: null, avatar_url: null }).toEqual({
        ...before,
        profile_photo_url: null,
        avatar_url: null,
      });
      expect(after).toMatchObject({
        is_premium: false,
        is_pro: false,
        is_plus: false,
        is_multi: false,
        pulse_credits: 0,
        username_changes_count: 0,
        role: 'user',
        username: 'Léa',
        bio: null,
      });
    });

    it("never edits someone else's profile", async () => {
      const a = await person('Alice');
      const b = await person('Bruno');
      expect((await patch(a.token, { bio: 'Moi', id: b.id })).statusCode).toBe(400);
      expect((await patch(a.token, { bio: 'Moi' })).statusCode).toBe(200);
      expect((await row(b.id)).bio).toBeNull();
      expect((await row(a.id)).bio).toBe('Moi');
    });
  });

  describe('public profile', () => {
    it('exposes only public fields and the live posts newest first', async () => {
      const p = await person('Léa');
      await t.database.db.execute(sql`
        update profiles set phone_number = '0692123456', date_of_birth = '1990-05-04', pulse_credits = 7, is_plus = true, bio = 'Bonjour'
        where id = ${p.id}`);
      const older = await insertPost(t, p.id, { content: 'Hier soir', ageMinutes: 120 });
      const newer = await insertPost(t, p.id, { content: 'Ce matin', ageMinutes: 5 });
      const gone = await insertPost(t, p.id, { content: 'Trop vieux', ageMinutes: 10 });
      await expire(t, gone);
      const other = await person('Bruno');
      await insertPost(t, other.id, { content: 'Pas à moi' });

      for (const token of [undefined, other.token, p.token]) {
        const res = await call(t, { method: 'GET', url: `/api/profiles/${p.id}`, token });
        expect(res.statusCode).toBe(200);
        const body = res.json();
        expect(Object.keys(body).sort()).toEqual(['posts', 'profile']);
        expect(Object.keys(body.profile).sort()).toEqual(PUBLIC_KEYS);
        expect(body.profile).toMatchObject({
          id: p.id,
          username: 'Léa',
          bio: 'Bonjour',
          isPlus: true,
          isPremium: false,
          profilePhotoUrl: null,
        });
        expect(new Date(body.profile.createdAt).toISOString()).toBe(body.profile.createdAt);
        expect(body.posts.map((post: { id: string }) => post.id)).toEqual([newer, older]);
        for (const secret of [
          p.email,
          '0692123456',
          '1990-05-04',
          'Martin',
          'pulseCredits',
          'phoneNumber',
          'email',
          'usernameChangesCount',
          'lastUsernameChange',
        ]) {
          expect(res.body, secret).not.toContain(secret);
        }
      }
    });

    it("answers 'Profil introuvable' for an unknown or malformed id", async () => {
      for (const id of ['3f1c2d4e-5a6b-4c7d-8e9f-0a1b2c3d4e5f', 'pas-un-id', "1' or '1'='1"]) {
        const res = await call(t, { method: 'GET', url: `/api/profiles/${encodeURIComponent(id)}` });
        expect(res.statusCode, id).toBe(404);
        expect(res.json().error).toEqual({ code: 'profile_not_found', message: 'Profil introuvable' });
      }
    });
  });

  describe('photo', () => {
    it('re-encodes the upload as a square avatar without EXIF or GPS', async () => {
      const p = await person();
      const original = await jpeg({ gps: true });
      expect((await sharp(original.body).metadata()).exif).toBeDefined();
      const res = await upload(p.token, original);
      expect(res.statusCode).toBe(200);
      const { profilePhotoUrl, avatarUrl } = res.json().user.profile as { profilePhotoUrl: string; avatarUrl: string };
      expect(profilePhotoUrl).toMatch(/^\/media\/avatars\/[0-9a-f-]{36}\.webp$/);
      expect(avatarUrl).toMatch(/^\/media\/avatars\/[0-9a-f-]{36}-thumb\.webp$/);
      for (const [url, size] of [
        [profilePhotoUrl, 512],
        [avatarUrl, 128],
      ] as const) {
        const file = await media(url);
        expect(file.statusCode).toBe(200);
        const meta = await sharp(file.rawPayload).metadata();
        expect(meta).toMatchObject({ format: 'webp', width: size, height: size });
        expect(meta.exif).toBeUndefined();
        expect(file.rawPayload.includes(Buffer.from('Secret Phone 3000'))).toBe(false);
      }
      // Everyone sees it: the public profile and the author of the user's posts.
      const post = await publish(t, p.token);
      expect((await call(t, { method: 'GET', url: `/api/profiles/${p.id}` })).json().profile).toMatchObject({
        profilePhotoUrl,
        avatarUrl,
      });
      expect((await call(t, { method: 'GET', url: `/api/posts/${post.id}` })).json().post.author.photoUrl).toBe(
        profilePhotoUrl,
      );
    });

    it('refuses other types and files over 5 MB with their French texts, keeping the current photo', async () => {
      const p = await person();
      const current = (await upload(p.token, await jpeg())).json().user.profile.profilePhotoUrl as string;
      const refusals: Array<[{ filename: string; contentType: string; body: Buffer }, number, string]> = [
        [
          { filename: 'moi.jpg', contentType: 'image/jpeg', body: Buffer.from('%PDF-1.7\n'.repeat(200)) },
          400,
          'Type de fichier non autorisé. Utilisez JPEG, PNG, GIF ou WebP.',
        ],
        [
          {
            filename: 'moi.png',
            contentType: 'image/png',
            body: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
          },
          400,
          'Type de fichier non autorisé. Utilisez JPEG, PNG, GIF ou WebP.',
        ],
        [
          {
            filename: 'moi.jpg',
            contentType: 'image/jpeg',
            body: Buffer.concat([await photo(200, 200), Buffer.alloc(5 * 1024 * 1024)]),
          },
          413,
          "La taille de l'image ne doit pas dépasser 5MB",
        ],
      ];
      for (const [file, status, message] of refusals) {
        const res = await upload(p.token, file);
        expect(res.statusCode, message).toBe(status);
        expect(res.json().error.message).toBe(message);
      }
      expect((await row(p.id)).profile_photo_url).toBe(current);
      expect((await media(current)).statusCode).toBe(200);
    });

    it('deletes the old photo and its thumbnail once replaced, and both when removed', async () => {
      const p = await person();
      const events: unknown[] = [];
      const stop = t.app.ctx.bus.subscribe((e) => events.push(e));
      const first = (await upload(p.token, await jpeg())).json().user.profile as {
        profilePhotoUrl: string;
        avatarUrl: string;
      };
      const second = (
        await upload(p.token, { filename: 'moi.png', contentType: 'image/png', body: await png(300, 200) })
      ).json().user.profile as { profilePhotoUrl: string; avatarUrl: string };
      expect(second.profilePhotoUrl).not.toBe(first.profilePhotoUrl);
      expect((await media(first.profilePhotoUrl)).statusCode).toBe(404);
      expect((await media(first.avatarUrl)).statusCode).toBe(404);
      expect((await media(second.profilePhotoUrl)).statusCode).toBe(200);
      expect((await media(second.avatarUrl)).statusCode).toBe(200);
      await expect
        .poll(() => events)
        .toContainEqual({
          type: 'profile.updated',
          data: { userId: p.id, username: p.username, photoUrl: second.profilePhotoUrl },
          about: [p.id],
        });

      const removed = await call(t, { method: 'DELETE', url: '/api/profiles/me/photo', token: p.token });
      expect(removed.statusCode).toBe(200);
      expect(removed.json().user.profile).toMatchObject({ profilePhotoUrl: null, avatarUrl: null });
      expect(await row(p.id)).toMatchObject({ profile_photo_url: null, avatar_url: null });
      expect((await media(second.profilePhotoUrl)).statusCode).toBe(404);
      expect((await media(second.avatarUrl)).statusCode).toBe(404);
      await expect
        .poll(() => events)
        .toContainEqual({
          type: 'profile.updated',
          data: { userId: p.id, username: p.username, photoUrl: null },
          about: [p.id],
        });
      stop();
    });

    it("never deletes a file that was not this profile's avatar", async () => {
      const p = await person();
      const form = multipart([{ name: 'file', file: await jpeg() }]);
      const postImage = (
        await call(t, {
          method: 'POST',
          url: '/api/uploads/post-image',
          token: p.token,
          payload: form.payload,
          headers: form.headers,
        })
      ).json().url as string;
      await t.database.db.execute(
        sql`update profiles set profile_photo_url = ${postImage}, avatar_url = 'https://ailleurs.example/avatar.png' where id = ${p.id}`,
      );
      expect((await upload(p.token, await jpeg())).statusCode).toBe(200);
      expect((await media(postImage)).statusCode).toBe(200);
    });

    it('limits uploads to 30 an hour', async () => {
      const p = await person();
      const small = { filename: 'p.png', contentType: 'image/png', body: await png(32, 32) };
      for (let i = 0; i < 30; i++) expect((await upload(p.token, small)).statusCode).toBe(200);
      const res = await upload(p.token, small);
      expect(res.statusCode).toBe(429);
      expect(res.json().error.message).toBe("Trop d'uploads. Veuillez patienter.");
    });
  });
});
