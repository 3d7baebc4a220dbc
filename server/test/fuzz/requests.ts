/**
 * Hostile requests for any route of the API, as fast-check arbitraries: hostile path parameters,
 * query strings, JSON bodies (mostly-valid bodies with a few fields of the wrong type, so the
 * request gets past the first check), wrong content types and odd headers. A request is plain
 * data, sent either with `app.inject` (`toInject`) or over a socket (wire.ts).
 */
import fc from 'fast-check';
import { REPORT_REASON_KEYS, termsAt } from '@moodmap/core';
import {
  HOSTILE_NUMBERS,
  Long,
  RawJson,
  cursorsFor,
  deepArray,
  deepObject,
  describeValue,
  hostileString,
  hostileValue,
  jsonText,
} from './hostile-values.ts';
import type { Route } from './route-list.ts';

/** Real ids of the fuzzed world (fixtures.ts), so some requests reach past "not found". */
export interface WorldIds {
  users: string[];
  posts: string[];
  comments: string[];
  conversations: string[];
  messages: string[];
}

export type Body =
  | { kind: 'json'; value: unknown }
  | { kind: 'text'; text: string | Long | RawJson }
  | {
      kind: 'multipart';
      boundary: string;
      parts: Array<{ name: string; filename?: string; type?: string; data: string | Long }>;
    };

export interface FuzzRequest {
  route: Route;
  method: string;
  /** Path as sent, parameters filled and percent-encoded (or deliberately not). */
  path: string;
  /** Query string as sent, without '?'. */
  query: string;
  headers: Record<string, string>;
  contentType: string | null;
  body: Body | null;
  ip: string;
}

// ---------------------------------------------------------------------------------------------
// Paths

/** Percent-encodes every byte but the unreserved ones; never throws on a lone surrogate. */
export function encodeSegment(text: string): string {
  let out = '';
  for (const byte of Buffer.from(text, 'utf8')) {
    const c = String.fromCharCode(byte);
    out += /[A-Za-z0-9\-._~]/.test(c) ? c : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/** Path segments sent as is: broken percent-encodings, traversal, overlong parameters. */
const RAW_SEGMENTS = [
  '%E0%A4%A',
  '%00',
  'a%00b',
  '..%2f..%2fetc%2fpasswd',
  '%2e%2e',
  '%',
  '%zz',
  '%C0%AF',
  '%ED%A0%80',
  '%FF',
  '%F0%9F%98%80',
  '..',
  '.',
  '%20',
  '%3F',
  '%23',
  ';a=b',
  'a%2Fb',
  'a'.repeat(101),
  'a'.repeat(5000),
  '%C3%A9'.repeat(60),
  'null',
  'undefined',
  '-1',
  '00000000-0000-0000-0000-000000000000',
  'FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF',
  '00000000-0000-4000-8000-00000000000g',
];

/** What the catch-all route is asked for. */
const WILDCARD_PATHS = [
  '/api',
  '/api/',
  '/api/nope',
  '/api/posts/',
  '/api//posts',
  '/api/posts/%E0%A4%A/like',
  '/api/%00',
  '/API/health',
  '/api/health/',
  '/api/health%00',
  '/api/health/..%2f..%2f',
  '/index.html',
  '/%E0%A4%A',
  '/..%2f..%2fetc%2fpasswd',
  '/dev/mail/%00',
  `/${'a'.repeat(5000)}`,
  `/api/${'a'.repeat(5000)}`,
  '/assets/../../package.json',
  '/.env',
  '/%2e%2e/%2e%2e/etc/passwd',
  '/api/posts/:id',
  '/api/*',
];

const shortText = (value: string | Long, max: number) =>
  value instanceof Long ? new Long(value.unit, Math.min(value.count, max)).build() : value;

function paramValue(ids: WorldIds): fc.Arbitrary<string> {
  const all = [...ids.users, ...ids.posts, ...ids.comments, ...ids.conversations, ...ids.messages];
  return fc.oneof(
    { arbitrary: fc.constantFrom(...all), weight: 3 },
    { arbitrary: fc.uuid(), weight: 1 },
    { arbitrary: hostileString.map((v) => encodeSegment(shortText(v, 3000))), weight: 4 },
    { arbitrary: fc.constantFrom(...RAW_SEGMENTS), weight: 3 },
  );
}

function pathFor(route: Route, ids: WorldIds): fc.Arbitrary<string> {
  if (route.url.includes('*')) return fc.constantFrom(...WILDCARD_PATHS);
  const names = [...route.url.matchAll(/:(\w+)/g)].map((m) => m[1]);
  if (names.length === 0) return fc.constant(route.url);
  return fc.array(paramValue(ids), { minLength: names.length, maxLength: names.length }).map((values) => {
    let i = 0;
    return route.url.replace(/:\w+/g, () => values[i++]);
  });
}

// ---------------------------------------------------------------------------------------------
// Query strings

const KNOWN_QUERY_KEYS = [
  'since',
  'before',
  'after',
  'limit',
  'q',
  'moods',
  'west',
  'south',
  'east',
  'north',
  'zoom',
  'lat',
  'lon',
  'type',
  'token',
  'access_token',
  'refresh_token',
  'id',
  'to',
  'subject',
];
const HOSTILE_QUERY_KEYS = [
  'a[b][c]',
  '__proto__',
  '__proto__[isAdmin]',
  'constructor[prototype][isAdmin]',
  'toString',
  'hasOwnProperty',
  'q[]',
  'moods[]',
  'since[]',
  'limit[$gt]',
  '',
  '%00',
  'a'.repeat(300),
];

function validQuery(ids: WorldIds): Record<string, string> {
  return {
    west: '55.2',
    south: '-21.4',
    east: '55.9',
    north: '-20.8',
    zoom: '12',
    lat: '48.85',
    lon: '2.35',
    q: 'Bonjour',
    moods: 'happy',
    limit: '10',
    type: 'signup',
    since: Buffer.from(`t:${new Date().toISOString()}`).toString('base64url'),
    after: ids.messages[0] ?? '',
    token: 'x',
  };
}

function queryFor(ids: WorldIds): fc.Arbitrary<string> {
  const valid = validQuery(ids);
  const value = fc.oneof(
    { arbitrary: hostileString.map((v) => encodeSegment(shortText(v, 5000))), weight: 4 },
    { arbitrary: fc.constantFrom(...RAW_SEGMENTS), weight: 2 },
    { arbitrary: fc.constantFrom(...cursorsFor(ids.conversations)), weight: 3 },
    {
      arbitrary: fc.constantFrom(
        ...HOSTILE_NUMBERS.map(String),
        '1e309',
        '-1e309',
        'NaN',
        '0x1F',
        '1_0',
        '99999999999999999999999',
        '12abc',
      ),
      weight: 2,
    },
    { arbitrary: fc.constantFrom(...[...ids.messages, ...ids.users, ...ids.posts]), weight: 1 },
  );
  const key = fc.oneof(
    { arbitrary: fc.constantFrom(...KNOWN_QUERY_KEYS), weight: 3 },
    { arbitrary: fc.constantFrom(...HOSTILE_QUERY_KEYS), weight: 1 },
  );
  return fc
    .tuple(fc.subarray(Object.keys(valid)), fc.array(fc.tuple(key, value), { maxLength: 4 }), fc.boolean())
    .map(([validKeys, hostile, repeat]) => {
      const pairs = [
        ...validKeys.map((k) => [k, encodeSegment(valid[k])] as const),
        ...hostile.map(([k, v]) => [encodeSegment(k), v] as const),
      ];
      // `a=1&a=2`: the same key twice makes an array for the handler.
      if (repeat && pairs.length > 0) pairs.push(pairs[0]);
      return pairs.map(([k, v]) => `${k}=${v}`).join('&');
    });
}

// ---------------------------------------------------------------------------------------------
// Bodies

/** A valid value for each field the API reads, so a body with one wrong field gets past the others. */
export function validFields(ids: WorldIds): Record<string, fc.Arbitrary<unknown>> {
  return {
    email: fc.stringMatching(/^[a-z]{3,10}$/).map((name) => `${name}@example.fr`),
    password: fc.constantFrom('Soleil2024', 'mauvais'),
    firstName: fc.constant('Léa'),
    lastName: fc.constant('Martin'),
    challengeToken: fc.constant('jeton'),
    challengeAnswer: fc.constant('douze'),
    termsVersion: fc.constant(termsAt(new Date()).current.version),
    website: fc.constant(''),
    fax: fc.constant(''),
    refreshToken: fc.constant('jeton-de-rafraichissement'),
    accessToken: fc.constant('jeton-d-acces'),
    content: fc.constant('Bonjour'),
    reason: fc.constantFrom(...REPORT_REASON_KEYS),
    details: fc.constant('Détails'),
    category: fc.constant('happy'),
    latitude: fc.constant(-20.8789),
    longitude: fc.constant(55.4481),
    imageUploadId: fc.uuid(),
    audioUploadId: fc.uuid(),
    usePulseEffect: fc.constant(false),
    approximate: fc.boolean(),
    userId: fc.constantFrom(...ids.users),
    nickname: fc.stringMatching(/^[a-z]{4,12}$/),
    bio: fc.constant('Salut'),
  };
}

const POISON_KEYS = [
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'valueOf',
  'hasOwnProperty',
  'isAdmin',
  'role',
  'userId',
  'id',
  '',
];

function fieldsBody(ids: WorldIds): fc.Arbitrary<Body> {
  const fields = validFields(ids);
  const names = Object.keys(fields);
  return fc
    .tuple(
      // Mostly every field valid, so the broken one is not hidden behind a missing one.
      fc.oneof(
        { arbitrary: fc.record(fields), weight: 3 },
        { arbitrary: fc.record(fields, { requiredKeys: [] }), weight: 1 },
      ),
      fc.array(
        fc.tuple(
          fc.oneof(
            { arbitrary: fc.constantFrom(...names), weight: 4 },
            { arbitrary: fc.constantFrom(...POISON_KEYS), weight: 1 },
          ),
          hostileValue,
        ),
        { minLength: 1, maxLength: 3 },
      ),
    )
    .map(([valid, hostile]) => {
      // defineProperty: `__proto__` must stay an own key, as in the JSON text an attacker sends.
      const body: Record<string, unknown> = {};
      for (const [k, v] of [...Object.entries(valid), ...hostile])
        Object.defineProperty(body, k, { value: v, enumerable: true, configurable: true, writable: true });
      return { kind: 'json', value: body } as const;
    });
}

const RAW_BODIES: Array<string | Long | RawJson> = [
  '',
  '{bad',
  '{"toString":1}',
  '{"email":{"toString":1},"password":{"toString":1}}',
  '{"email":"a\\u0000@b.fr","password":"Soleil2024"}',
  '\ufeff{}',
  'null',
  '"texte"',
  '1',
  'true',
  '[1,2',
  '{"a":1}{"b":2}',
  '{"__proto__":{"isAdmin":true}}',
  '{"constructor":{"prototype":{"isAdmin":true}}}',
  '{"a":"\\ud800"}',
  '{"a":"\\u0000"}',
  '\u0000',
  'a=1&b=2',
  '<xml/>',
  deepArray(200_000),
  deepObject(100_000),
  new Long('a', 1_100_000),
  new RawJson('1 MB JSON string', () => JSON.stringify({ content: 'a'.repeat(1_040_000) })),
];

const multipartBody: fc.Arbitrary<Body> = fc
  .tuple(
    fc.constantFrom('file', 'content', 'image', '', '__proto__'),
    fc.constantFrom(
      undefined,
      'photo.jpg',
      '../../etc/passwd',
      '..\\..\\win.ini',
      'a\u0000.png',
      '%00.png',
      'é😀.webm',
      'a'.repeat(300),
      '',
    ),
    fc.constantFrom(undefined, 'image/jpeg', 'image/png', 'audio/webm', 'text/html', 'application/octet-stream', ''),
    fc.oneof(hostileString, fc.constantFrom('\x89PNG\r\n\x1a\n', '\xff\xd8\xff\xe0', 'GIF89a', '\x1aE\xdf\xa3')),
    fc.boolean(),
  )
  .map(([name, filename, type, data, withContent]) => ({
    kind: 'multipart' as const,
    boundary: '----moodmapfuzz',
    parts: [{ name, filename, type, data }, ...(withContent ? [{ name: 'content', data: 'Bonjour' }] : [])],
  }));

const CONTENT_TYPES = [
  'application/json; charset=utf-8',
  'application/json; charset=latin1',
  'application/json; charset=utf-16',
  'APPLICATION/JSON',
  'application/vnd.api+json',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data',
  'multipart/form-data; boundary=',
  'application/octet-stream',
  'image/png',
  'application/xml',
  'application/json, text/plain',
  '*/*',
  'application/json;;',
  'x',
];

function bodyFor(ids: WorldIds): fc.Arbitrary<{ body: Body | null; contentType: string | null }> {
  const jsonType = fc.oneof(
    { arbitrary: fc.constant('application/json'), weight: 8 },
    { arbitrary: fc.constantFrom(...CONTENT_TYPES, null), weight: 2 },
  );
  return fc.oneof(
    { arbitrary: fc.constant({ body: null, contentType: null }), weight: 2 },
    { arbitrary: fc.record({ body: fieldsBody(ids), contentType: jsonType }), weight: 6 },
    {
      arbitrary: fc.record({
        body: hostileValue.map((value) => ({ kind: 'json', value }) as Body),
        contentType: jsonType,
      }),
      weight: 2,
    },
    {
      arbitrary: fc.record({
        body: fc.constantFrom(...RAW_BODIES).map((text) => ({ kind: 'text', text }) as Body),
        contentType: jsonType,
      }),
      weight: 2,
    },
    {
      arbitrary: fc.record({
        body: multipartBody,
        contentType: fc.constantFrom(
          'multipart/form-data; boundary=----moodmapfuzz',
          'multipart/form-data; boundary=autre',
          'multipart/form-data',
          'application/json',
        ),
      }),
      weight: 1,
    },
  );
}

// ---------------------------------------------------------------------------------------------
// Headers and whole requests

const HEADER_POOL: Array<[string, string]> = [
  ['authorization', 'Bearer x'],
  ['authorization', `Bearer ${'a'.repeat(5000)}`],
  ['authorization', 'Basic Zm9vOmJhcg=='],
  ['authorization', 'Bearer'],
  ['authorization', 'Bearer eyJhbGciOiJub25lIiwidHlwIjoiSldUIn0.eyJzdWIiOiJ4In0.'],
  ['cookie', 'refresh_token=abc'],
  ['cookie', 'a=%E0%A4%A; b; =; ;'],
  ['cookie', `sb=${'x'.repeat(4000)}`],
  ['origin', 'null'],
  ['origin', 'http://evil.example'],
  ['x-forwarded-for', '1.2.3.4, ::1, %00'],
  ['if-none-match', '*'],
  ['if-none-match', 'W/"x", "y",,'],
  ['accept-encoding', 'gzip;q=2, br;q=NaN, *;q=-1'],
  ['range', 'bytes=-1-'],
  ['range', 'bytes=99999999999999999999-'],
  ['accept', 'text/html'],
  ['accept-language', 'fr;q=abc'],
  ['content-encoding', 'gzip'],
  ['x-csrf-token', '%00'],
  ['user-agent', ''],
  ['user-agent', 'curl/8.0'],
  ['upgrade', 'websocket'],
  ['connection', 'upgrade'],
  ['sec-websocket-key', 'x'],
  ['sec-websocket-version', '99'],
  ['x-http-method-override', 'DELETE'],
  ['host', 'evil.example'],
];

export function requestArbitrary(routes: Route[], ids: WorldIds): fc.Arbitrary<FuzzRequest> {
  return fc
    .constantFrom(...routes)
    .chain((route) =>
      fc.record({
        route: fc.constant(route),
        method: fc.constant(route.method as string),
        path: pathFor(route, ids),
        query: fc.oneof({ arbitrary: fc.constant(''), weight: 1 }, { arbitrary: queryFor(ids), weight: 2 }),
        headers: fc.subarray(HEADER_POOL, { maxLength: 2 }).map((pairs) => Object.fromEntries(pairs)),
        payload: bodyFor(ids),
        ip: fc.oneof(fc.constant('203.0.113.7'), fc.ipV4()),
      }),
    )
    .map(({ payload, ...rest }) => ({ ...rest, ...payload }));
}

// ---------------------------------------------------------------------------------------------
// Sending

export function bodyBytes(body: Body | null): Buffer | undefined {
  if (!body) return undefined;
  if (body.kind === 'json') return Buffer.from(jsonText(body.value));
  if (body.kind === 'text') return Buffer.from(typeof body.text === 'string' ? body.text : body.text.build());
  const chunks: Buffer[] = [];
  for (const part of body.parts) {
    const disposition = `form-data; name="${part.name}"${part.filename === undefined ? '' : `; filename="${part.filename}"`}`;
    chunks.push(
      Buffer.from(
        `--${body.boundary}\r\nContent-Disposition: ${disposition}\r\n${part.type ? `Content-Type: ${part.type}\r\n` : ''}\r\n`,
      ),
    );
    const data = typeof part.data === 'string' ? part.data : part.data.build();
    // Magic numbers are bytes written as latin1 characters; other text goes as UTF-8.
    chunks.push(Buffer.from(data, /^[\x00-\xff]*$/.test(data) ? 'latin1' : 'utf8'));
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${body.boundary}--\r\n`));
  return Buffer.concat(chunks);
}

export const urlOf = (request: FuzzRequest) => (request.query ? `${request.path}?${request.query}` : request.path);

/** Headers as sent: the request's own, its content type, and the caller's token when signed in. */
export function headersOf(request: FuzzRequest, token?: string): Record<string, string> {
  return {
    'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Firefox/128.0',
    ...request.headers,
    ...(request.contentType ? { 'content-type': request.contentType } : {}),
    ...(token ? { authorization: `Bearer ${token}` } : {}),
  };
}

/** One line per part of the request, cut short, for failure reports. */
export function describeRequest(request: FuzzRequest, signedIn: boolean): string {
  const cut = (s: string, n = 300) => (s.length > n ? `${s.slice(0, n)}… (${s.length} chars)` : s);
  let body = 'none';
  if (request.body?.kind === 'json') body = describeValue(request.body.value);
  else if (request.body?.kind === 'text') body = cut(JSON.stringify(String(request.body.text)));
  else if (request.body?.kind === 'multipart') body = `multipart ${describeValue(request.body.parts)}`;
  return [
    `${request.method} ${cut(urlOf(request))}  (route ${request.route.method} ${request.route.url}, ${signedIn ? 'signed in' : 'signed out'}, ip ${request.ip})`,
    `  headers: ${cut(JSON.stringify(request.headers), 200)}  content-type: ${request.contentType ?? 'none'}`,
    `  body: ${body}`,
  ].join('\n');
}
