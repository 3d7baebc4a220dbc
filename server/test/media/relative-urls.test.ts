/**
 * Local media URLs are root-relative (`/media/<key>`), so they work from whatever address the
 * app is opened at; rows written before held absolute URLs, rewritten at start-up, and their
 * files can still be deleted.
 */
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { LocalMediaStorage } from '../../src/adapters/storage/local.ts';
import { buildApp } from '../../src/app.ts';
import { testConfig } from '../../src/config.ts';
import { relativizeLocalMediaUrls } from '../../src/modules/media/relative-urls.ts';
import { call } from '../helpers/auth.ts';
import { engines } from '../helpers/databases.ts';
import { suiteAuthApp } from '../helpers/suite-app.ts';
import { insertPost, member, SAINT_DENIS, type Member } from '../interactions/fixtures.ts';
import { multipart, photo, type FormPart } from './fixtures.ts';
import { recording } from './webm-writer.ts';

const OLD = 'http://old-host:3000';
const FOREIGN = 'https://cdn.example/x.webp';
const S3_LIKE = 'https://moodmap.s3.eu-west-3.amazonaws.com/publications/0b9c4c53-4a57-4a52-8a3c-5d0f0f6b1e11.webp';

describe.each(engines)('root-relative local media URLs on %s', (engine) => {
  const t = suiteAuthApp(engine);

  const storage = () => t.app.ctx.storage as LocalMediaStorage;
  const onDisk = (url: string) => existsSync(storage().pathOf(storage().keyFromUrl(url)!));
  const form = (token: string, url: string, parts: FormPart[]) => {
    const body = multipart(parts);
    return call(t, { method: 'POST', url, token, payload: body.payload, headers: body.headers });
  };
  const jpeg = async () => ({ filename: 'photo.jpg', contentType: 'image/jpeg', body: await photo(640, 480) });
  const voice = () => ({ filename: 'blob', contentType: 'audio/webm', body: recording(3) });

  async function postImage(who: Member) {
    const res = await form(who.token, '/api/uploads/post-image', [{ name: 'file', file: await jpeg() }]);
    expect(res.statusCode).toBe(201);
    return res.json() as { uploadId: string; url: string; thumbnailUrl: string };
  }
  async function voiceUpload(who: Member) {
    const res = await form(who.token, '/api/uploads/voice', [{ name: 'file', file: voice() }]);
    expect(res.statusCode).toBe(201);
    return res.json() as { uploadId: string; url: string };
  }
  async function avatar(who: Member) {
    const res = await form(who.token, '/api/profiles/me/photo', [{ name: 'file', file: await jpeg() }]);
    expect(res.statusCode).toBe(200);
    return res.json().user.profile as { profilePhotoUrl: string; avatarUrl: string };
  }
  /** The file as a browser on another address gets it: the URL is resolved against the page. */
  async function served(url: string, type: string, host = '192.168.1.20:3000') {
    const res = await t.app.inject({ url, headers: { host } });
    expect(res.statusCode, url).toBe(200);
    expect(res.headers['content-type'], url).toBe(type);
    return res;
  }

  it('answers /media/<key> for every upload (post image, voice, avatar, chat image), served whatever host the app is reached at', async () => {
    const lea = await member(t);
    const marc = await member(t);

    const image = await postImage(lea);
    expect(image.url).toMatch(/^\/media\/publications\/[0-9a-f-]{36}\.webp$/);
    expect(image.thumbnailUrl).toMatch(/^\/media\/publications\/[0-9a-f-]{36}-thumb\.webp$/);
    const audio = await voiceUpload(lea);
    expect(audio.url).toMatch(/^\/media\/voice-messages\/[0-9a-f-]{36}\.webm$/);
    const created = await call(t, {
      method: 'POST',
      url: '/api/posts',
      token: lea.token,
      payload: {
        category: 'happy',
        content: 'Bonjour',
        ...SAINT_DENIS,
        imageUploadId: image.uploadId,
        audioUploadId: audio.uploadId,
      },
    });
    expect(created.statusCode).toBe(201);
    expect(created.json().post).toMatchObject({
      imageUrl: image.url,
      thumbnailUrl: image.thumbnailUrl,
      mediaUrls: [image.url],
      audioUrl: audio.url,
    });
    await served(image.url, 'image/webp');
    await served(image.thumbnailUrl, 'image/webp', 'localhost:4000');
    await served(audio.url, 'audio/webm');

    const photos = await avatar(lea);
    expect(photos.profilePhotoUrl).toMatch(/^\/media\/avatars\/[0-9a-f-]{36}\.webp$/);
    expect(photos.avatarUrl).toMatch(/^\/media\/avatars\/[0-9a-f-]{36}-thumb\.webp$/);
    await served(photos.profilePhotoUrl, 'image/webp');
    await served(photos.avatarUrl, 'image/webp');

    const conversation = await call(t, {
      method: 'POST',
      url: '/api/conversations',
      token: lea.token,
      payload: { userId: marc.id },
    });
    const sent = await form(lea.token, `/api/conversations/${conversation.json().conversation.id}/messages`, [
      { name: 'file', file: await jpeg() },
    ]);
    expect(sent.statusCode).toBe(201);
    const chatImage = sent.json().message.imageUrl as string;
    expect(chatImage).toMatch(/^\/media\/message-images\/[0-9a-f-]{36}\.webp$/);
    await served(chatImage, 'image/webp');
  });

  it('rewrites every legacy absolute local URL at start-up, leaves foreign and S3 URLs alone, and changes nothing the second time', async () => {
    const lea = await member(t);
    const marc = await member(t);
    const key = (dir: string, suffix = '.webp') => `${dir}/${randomUUID()}${suffix}`;
    const [photoKey, postKey, voiceKey, uploadKey, chatKey] = [
      key('avatars'),
      key('publications'),
      key('voice-messages', '.webm'),
      key('publications'),
      key('message-images'),
    ];
    const thumbOf = (k: string) => k.replace('.webp', '-thumb.webp');
    // The user's own text quoting such a URL is text, not a stored URL: never rewritten.
    const content = `Lien : "${OLD}/media/${postKey}" [ "${OLD}/media/${postKey}"`;

    const db = t.database.db;
    await db.execute(
      sql`update profiles set profile_photo_url = ${`${OLD}/media/${photoKey}`}, avatar_url = ${FOREIGN} where id = ${lea.id}`,
    );
    await db.execute(
      sql`update profiles set profile_photo_url = ${`https://moodmap.example/media/${thumbOf(photoKey)}`}, avatar_url = null where id = ${marc.id}`,
    );
    const postId = await insertPost(t, lea.id, { content });
    await db.execute(sql`
      update publications set image_url = ${`${OLD}/media/${postKey}`}, thumbnail_url = ${`${OLD}/media/${thumbOf(postKey)}`},
        media_urls = ${JSON.stringify([`${OLD}/media/${postKey}`, FOREIGN, S3_LIKE])}::jsonb, audio_url = ${`${OLD}/media/${voiceKey}`}
      where id = ${postId}`);
    const foreignPostId = await insertPost(t, marc.id);
    await db.execute(
      sql`update publications set image_url = ${S3_LIKE}, media_urls = ${JSON.stringify([S3_LIKE])}::jsonb where id = ${foreignPostId}`,
    );
    await db.execute(
      sql`insert into uploads (user_id, kind, url, thumbnail_url) values (${lea.id}, 'post_image', ${`${OLD}/media/${uploadKey}`}, ${`${OLD}/media/${thumbOf(uploadKey)}`})`,
    );
    await db.execute(sql`insert into uploads (user_id, kind, url) values (${marc.id}, 'post_image', ${FOREIGN})`);
    const conversation = (
      await call(t, { method: 'POST', url: '/api/conversations', token: lea.token, payload: { userId: marc.id } })
    ).json().conversation.id as string;
    await db.execute(
      sql`insert into messages (conversation_id, sender_id, content, image_url) values (${conversation}, ${lea.id}, '', ${`${OLD}/media/${chatKey}`}), (${conversation}, ${marc.id}, '', ${FOREIGN})`,
    );
    // The report's snapshot copies the post's URLs, legacy ones included.
    expect(
      (
        await call(t, {
          method: 'POST',
          url: `/api/posts/${postId}/report`,
          token: marc.token,
          payload: { reason: 'spam' },
        })
      ).statusCode,
    ).toBe(201);

    const read = async () => {
      const profiles = await db.execute(
        sql`select id, profile_photo_url, avatar_url from profiles where id in (${lea.id}, ${marc.id})`,
      );
      const posts = await db.execute(
        sql`select id, image_url, thumbnail_url, media_urls, audio_url from publications where id in (${postId}, ${foreignPostId})`,
      );
      const uploads = await db.execute(
        sql`select url, thumbnail_url from uploads where user_id in (${lea.id}, ${marc.id}) order by url`,
      );
      const messages = await db.execute(
        sql`select image_url from messages where conversation_id = ${conversation} order by image_url`,
      );
      const reports = await db.execute(sql`select post_snapshot from post_reports where post_id = ${postId}`);
      const byId = <T extends { id: string }>(rows: T[]) =>
        Object.fromEntries(rows.map(({ id, ...rest }) => [id, rest]));
      const snapshot = reports.rows[0].post_snapshot;
      return {
        profiles: byId(profiles.rows as Array<{ id: string }>),
        posts: byId(
          (posts.rows as Array<{ id: string; media_urls: unknown }>).map((p) => ({
            ...p,
            media_urls: typeof p.media_urls === 'string' ? JSON.parse(p.media_urls) : p.media_urls,
          })),
        ),
        uploads: uploads.rows,
        messages: messages.rows.map((m) => m.image_url),
        snapshot: (typeof snapshot === 'string' ? JSON.parse(snapshot) : snapshot) as Record<string, unknown>,
      };
    };
    const before = await read();
    expect(before.snapshot).toMatchObject({
      imageUrl: `${OLD}/media/${postKey}`,
      audioUrl: `${OLD}/media/${voiceKey}`,
      content,
    });

    // An S3 deployment never touches its rows, even ones that look like local URLs.
    const s3App = await buildApp(
      testConfig({ s3: { region: 'eu-west-3', bucket: 'moodmap', accessKeyId: 'AK', secretAccessKey: 'SK' } }),
      { database: t.database },
    );
    await s3App.close();
    expect(await read()).toEqual(before);

    // Start-up with the local store.
    const restarted = await buildApp(testConfig(), { database: t.database });
    await restarted.close();
    const after = await read();
    expect(after.profiles).toEqual({
      [lea.id]: { profile_photo_url: `/media/${photoKey}`, avatar_url: FOREIGN },
      [marc.id]: { profile_photo_url: `/media/${thumbOf(photoKey)}`, avatar_url: null },
    });
    expect(after.posts).toEqual({
      [postId]: {
        image_url: `/media/${postKey}`,
        thumbnail_url: `/media/${thumbOf(postKey)}`,
        media_urls: [`/media/${postKey}`, FOREIGN, S3_LIKE],
        audio_url: `/media/${voiceKey}`,
      },
      [foreignPostId]: { image_url: S3_LIKE, thumbnail_url: null, media_urls: [S3_LIKE], audio_url: null },
    });
    expect(after.uploads).toEqual([
      { url: `/media/${uploadKey}`, thumbnail_url: `/media/${thumbOf(uploadKey)}` },
      { url: FOREIGN, thumbnail_url: null },
    ]);
    expect(after.messages).toEqual([`/media/${chatKey}`, FOREIGN]);
    expect(after.snapshot).toEqual({
      ...before.snapshot,
      imageUrl: `/media/${postKey}`,
      thumbnailUrl: `/media/${thumbOf(postKey)}`,
      mediaUrls: [`/media/${postKey}`, FOREIGN, S3_LIKE],
      audioUrl: `/media/${voiceKey}`,
      content,
    });

    // Idempotent: nothing left to rewrite anywhere, and a further start-up changes nothing.
    expect(await relativizeLocalMediaUrls(db)).toEqual({});
    const again = await buildApp(testConfig(), { database: t.database });
    await again.close();
    expect(await read()).toEqual(after);
  });

  it('still deletes the files of a post, an avatar and an orphan upload whose rows hold legacy absolute URLs', async () => {
    const lea = await member(t);
    const legacy = (url: string) => `${OLD}${url}`;
    const db = t.database.db;

    // A post with an image and a voice message, deleted by its author.
    const image = await postImage(lea);
    const audio = await voiceUpload(lea);
    const created = await call(t, {
      method: 'POST',
      url: '/api/posts',
      token: lea.token,
      payload: {
        category: 'happy',
        content: 'Bonjour',
        ...SAINT_DENIS,
        imageUploadId: image.uploadId,
        audioUploadId: audio.uploadId,
      },
    });
    const postId = created.json().post.id as string;
    await db.execute(sql`
      update publications set image_url = ${legacy(image.url)}, thumbnail_url = ${legacy(image.thumbnailUrl)},
        media_urls = ${JSON.stringify([legacy(image.url)])}::jsonb, audio_url = ${legacy(audio.url)}
      where id = ${postId}`);
    const postFiles = [image.url, image.thumbnailUrl, audio.url];
    for (const url of postFiles) expect(onDisk(url), url).toBe(true);
    expect((await call(t, { method: 'DELETE', url: `/api/posts/${postId}`, token: lea.token })).statusCode).toBe(204);
    for (const url of postFiles) {
      expect(onDisk(url), url).toBe(false);
      expect((await t.app.inject(url)).statusCode).toBe(404);
    }

    // An avatar replaced by a new one, then the new one removed.
    const first = await avatar(lea);
    await db.execute(
      sql`update profiles set profile_photo_url = ${legacy(first.profilePhotoUrl)}, avatar_url = ${legacy(first.avatarUrl)} where id = ${lea.id}`,
    );
    const second = await avatar(lea);
    for (const url of [first.profilePhotoUrl, first.avatarUrl]) expect(onDisk(url), url).toBe(false);
    for (const url of [second.profilePhotoUrl, second.avatarUrl]) expect(onDisk(url), url).toBe(true);
    await db.execute(
      sql`update profiles set profile_photo_url = ${legacy(second.profilePhotoUrl)}, avatar_url = ${legacy(second.avatarUrl)} where id = ${lea.id}`,
    );
    expect((await call(t, { method: 'DELETE', url: '/api/profiles/me/photo', token: lea.token })).statusCode).toBe(200);
    for (const url of [second.profilePhotoUrl, second.avatarUrl]) expect(onDisk(url), url).toBe(false);

    // An upload never attached to a post, swept after an hour.
    const orphan = await postImage(lea);
    await db.execute(sql`
      update uploads set url = ${legacy(orphan.url)}, thumbnail_url = ${legacy(orphan.thumbnailUrl)}, created_at = now() - interval '2 hours'
      where id = ${orphan.uploadId}`);
    const { sweepExpired } = await import('../../src/modules/posts/sweeper.ts');
    const { deleteMediaUrls } = await import('../../src/modules/media/index.ts');
    const swept = await sweepExpired(db);
    expect(swept.mediaUrls).toContain(legacy(orphan.url));
    await deleteMediaUrls(storage(), swept.mediaUrls);
    for (const url of [orphan.url, orphan.thumbnailUrl]) expect(onDisk(url), url).toBe(false);
  });
});
