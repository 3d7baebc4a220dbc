/**
 * Hostile input: values that could end in a 500, or pass with the wrong type, answer a 4xx
 * in the API's shape on both engines.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '@moodmap/core';
import { call } from '../helpers/auth.ts';
import { engines } from '../helpers/databases.ts';
import { suiteAuthApp } from '../helpers/suite-app.ts';
import { member, publish, type Member } from '../interactions/fixtures.ts';
import { multipart } from '../media/fixtures.ts';

const BAD_REQUEST = { error: { code: 'bad_request', message: MESSAGES.bad_request } };
const TOO_LARGE = { error: { code: 'request_too_large', message: MESSAGES.request_too_large } };
const NUL = '\u0000';
const b64 = (text: string) => Buffer.from(text).toString('base64url');

/** `[[[…]]]` nested `depth` times. */
const deepArray = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);

describe.each(engines)('hostile input on %s', (engine) => {
  const t = suiteAuthApp(engine);
  let lea: Member;
  let marc: Member;
  let postId: string;
  let conversationId: string;
  beforeAll(async () => {
    lea = await member(t);
    marc = await member(t);
    postId = (await publish(t, marc.token)).id;
    const opened = await call(t, {
      method: 'POST',
      url: '/api/conversations',
      token: lea.token,
      payload: { userId: marc.id },
    });
    conversationId = opened.json().conversation.id;
  });

  describe('a NUL character, which PostgreSQL cannot store in text, is a 400 wherever it comes', () => {
    it('in a search (once a 500 from the database)', async () => {
      const res = await call(t, { method: 'GET', url: `/api/search?q=${encodeURIComponent(`ab${NUL}cd`)}` });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual(BAD_REQUEST);
    });

    it('in the e-mail of a sign-in (a rate-limit key)', async () => {
      const res = await call(t, {
        method: 'POST',
        url: '/api/auth/login',
        payload: { email: `lea${NUL}@example.fr`, password: 'Soleil2024' },
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual(BAD_REQUEST);
    });

    it('in the text of a comment, a post, a report, a bio and a message (JSON or form)', async () => {
      const text = `Bonjour${NUL}tout le monde`;
      const writes = [
        { method: 'POST', url: `/api/posts/${postId}/comments`, token: lea.token, payload: { content: text } },
        {
          method: 'POST',
          url: '/api/posts',
          token: lea.token,
          payload: { category: 'happy', content: text, latitude: -20.8789, longitude: 55.4481 },
        },
        {
          method: 'POST',
          url: `/api/posts/${postId}/report`,
          token: lea.token,
          payload: { reason: 'other', details: text },
        },
        { method: 'PATCH', url: '/api/profiles/me', token: lea.token, payload: { bio: text } },
        {
          method: 'POST',
          url: `/api/conversations/${conversationId}/messages`,
          token: lea.token,
          payload: { content: text },
        },
        // A key holding the NUL is refused as well: a NUL is never legitimate anywhere.
        { method: 'PATCH', url: '/api/profiles/me', token: lea.token, payload: { [`bio${NUL}`]: 'x' } },
      ] as const;
      for (const write of writes) {
        const res = await call(t, { ...write, payload: { ...write.payload } });
        expect(res.statusCode, `${write.method} ${write.url}`).toBe(400);
        expect(res.json()).toEqual(BAD_REQUEST);
      }
      const form = multipart([{ name: 'content', value: text }]);
      const sent = await call(t, {
        method: 'POST',
        url: `/api/conversations/${conversationId}/messages`,
        token: lea.token,
        payload: form.payload,
        headers: form.headers,
      });
      expect(sent.statusCode).toBe(400);
      expect(sent.json()).toEqual(BAD_REQUEST);
    });

    it('in a path parameter or a cursor', async () => {
      for (const url of [
        `/api/profiles/${NUL}`,
        `/api/conversations/${conversationId}/messages?before=${NUL}`,
        `/api/posts/changes?since=${NUL}`,
      ]) {
        const res = await call(t, { method: 'GET', url: url.replace(NUL, '%00'), token: lea.token });
        expect(res.statusCode, url).toBe(400);
        expect(res.json()).toEqual(BAD_REQUEST);
      }
    });
  });

  describe('cursors are read strictly: only the exact time the server wrote', () => {
    // Date.parse accepts every one of these; PostgreSQL refused them (500).
    const oddTimes = [
      'March 7',
      '-271821-04-20T00:00:00Z',
      '0000-01-01T00:00:00.000Z',
      '1969-12-31T23:59:59.999Z',
      '2024-02-30T00:00:00.000Z',
      '2024-03-07',
      '2024-03-07T10:00:00+02:00',
    ];

    it('in the conversations list', async () => {
      for (const time of oddTimes) {
        const before = b64(`${time}|${conversationId}`);
        const res = await call(t, { method: 'GET', url: `/api/conversations?before=${before}`, token: lea.token });
        expect(res.statusCode, time).toBe(400);
        expect(res.json()).toEqual(BAD_REQUEST);
      }
      // The cursor the server itself gives still pages.
      const page = await call(t, { method: 'GET', url: '/api/conversations?limit=1', token: lea.token });
      const own = b64(`${page.json().conversations[0].updatedAt}|${conversationId}`);
      expect(
        (await call(t, { method: 'GET', url: `/api/conversations?before=${own}`, token: lea.token })).statusCode,
      ).toBe(200);
    });

    it('in the posts changes feed', async () => {
      for (const time of oddTimes) {
        const res = await call(t, { method: 'GET', url: `/api/posts/changes?since=${b64(`t:${time}`)}` });
        expect(res.statusCode, time).toBe(400);
        expect(res.json()).toEqual(BAD_REQUEST);
      }
      const { cursor } = (
        await call(t, { method: 'GET', url: '/api/posts/viewport?west=-180&south=-85&east=180&north=85&zoom=1' })
      ).json();
      expect((await call(t, { method: 'GET', url: `/api/posts/changes?since=${cursor}` })).statusCode).toBe(200);
    });
  });

  it('refuses query parameters of the wrong type (repeated, malformed) instead of ignoring them', async () => {
    const urls = [
      `/api/conversations?before=${b64('x')}&before=${b64('y')}`,
      '/api/conversations?limit=1e1',
      '/api/conversations?limit=0',
      `/api/conversations/${conversationId}/messages?limit=5&limit=6`,
      '/api/posts/changes?since=a&since=b',
      '/api/posts/changes',
    ];
    for (const url of urls) {
      const res = await call(t, { method: 'GET', url, token: lea.token });
      expect(res.statusCode, url).toBe(400);
      expect(res.json().error.code).toBe('bad_request');
    }
    const wrongBody = await call(t, {
      method: 'POST',
      url: '/api/conversations',
      token: lea.token,
      payload: { userId: { toString: 1 } },
    });
    expect(wrongBody.statusCode).toBe(400);
    expect(wrongBody.json()).toEqual(BAD_REQUEST);
  });

  it('refuses prototype keys in a JSON body', async () => {
    for (const payload of [
      '{"__proto__":{"isAdmin":true},"content":"Coucou"}',
      '{"constructor":{"prototype":{"isAdmin":true}},"content":"Coucou"}',
    ]) {
      const res = await call(t, {
        method: 'POST',
        url: `/api/posts/${postId}/comments`,
        token: lea.token,
        payload,
        headers: { 'content-type': 'application/json' },
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual(BAD_REQUEST);
    }
  });

  it('answers a JSON body over the limit with 413 request_too_large, and a sign-in body over its own small limit too', async () => {
    const long = await call(t, {
      method: 'POST',
      url: `/api/posts/${postId}/comments`,
      token: lea.token,
      payload: { content: 'a'.repeat(100 * 1024) },
    });
    expect(long.statusCode).toBe(413);
    expect(long.json()).toEqual(TOO_LARGE);
    // 20 kB is far below the JSON limit, far above what any account form sends.
    const login = await call(t, {
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: `'${' '.repeat(20_000)}`, password: 'x' },
    });
    expect(login.statusCode).toBe(413);
    expect(login.json()).toEqual(TOO_LARGE);
    // A 200 000-deep array: refused by size, never parsed.
    const deep = await call(t, {
      method: 'POST',
      url: `/api/posts/${postId}/comments`,
      token: lea.token,
      payload: deepArray(200_000),
      headers: { 'content-type': 'application/json' },
    });
    expect(deep.statusCode).toBe(413);
  });
});

describe.each(engines)('deeply nested JSON accepted by the size limit on %s', (engine) => {
  // A limit large enough to let a 200 000-deep array reach the guards and the schemas.
  const t = suiteAuthApp(engine, { bodyLimit: 1024 * 1024 });
  let lea: Member;
  let postId: string;
  beforeAll(async () => {
    lea = await member(t);
    postId = (await publish(t, (await member(t)).token)).id;
  });

  it('is a 400 on every JSON route, never a RangeError 500', async () => {
    const deep = '['.repeat(200_000) + ']'.repeat(200_000);
    const wrapped = `{"content":${deep},"bio":${deep},"details":${deep},"reason":"other","category":"happy","userId":${deep}}`;
    const routes = [
      { method: 'POST', url: `/api/posts/${postId}/comments` },
      { method: 'POST', url: '/api/posts' },
      { method: 'POST', url: `/api/posts/${postId}/report` },
      { method: 'PATCH', url: '/api/profiles/me' },
      { method: 'POST', url: '/api/conversations' },
    ] as const;
    for (const route of routes) {
      for (const payload of [deep, wrapped]) {
        const res = await call(t, {
          ...route,
          token: lea.token,
          payload,
          headers: { 'content-type': 'application/json' },
        });
        expect(res.statusCode, `${route.method} ${route.url}`).toBeGreaterThanOrEqual(400);
        expect(res.statusCode, `${route.method} ${route.url}`).toBeLessThan(500);
        expect(res.json().error.code).toEqual(expect.any(String));
      }
    }
  });
});
