/**
 * Hostile requests over real sockets. `app.inject` skips Node's HTTP parser, so what only the
 * parser sees — 431 for big headers, a broken request line, a bad Content-Length — and the
 * router's bad-URL answer are sent here to a listening server.
 */
import net from 'node:net';
import type { Answer } from './answers.ts';
import { bodyBytes, headersOf, urlOf, type FuzzRequest } from './requests.ts';

/** A hang guard only (a server that never answers is a defect); not a speed goal. */
const NO_ANSWER_MS = 60_000;

/**
 * The bytes of a request as a client would send them, on a connection of its own. Sent with
 * `net` rather than node:http, whose client refuses to read some answers (a 431 to a HEAD
 * carries a body) and whose agent would hide what the server did with the connection.
 */
export function wireBytes(request: FuzzRequest, token?: string): Buffer {
  const payload = bodyBytes(request.body);
  const headers = Object.entries(headersOf(request, token)).filter(
    ([name]) => name !== 'connection' && name !== 'content-length',
  );
  if (!request.headers.host) headers.unshift(['host', 'localhost']);
  if (payload) headers.push(['content-length', String(payload.length)]);
  headers.push(['connection', 'close']);
  const head = `${request.method} ${urlOf(request)} HTTP/1.1\r\n${headers.map(([k, v]) => `${k}: ${v}\r\n`).join('')}\r\n`;
  return payload ? Buffer.concat([Buffer.from(head, 'latin1'), payload]) : Buffer.from(head, 'latin1');
}

/** Sends a fuzzed request over a socket of its own and reads the answer. */
export const wireExchange = (port: number, request: FuzzRequest, token?: string) =>
  rawExchange(port, wireBytes(request, token));

/** Writes raw bytes on a fresh connection and parses whatever HTTP answer comes back before it closes. */
export function rawExchange(port: number, bytes: string | Buffer): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.setTimeout(NO_ANSWER_MS, () => socket.destroy(new Error(`no answer within ${NO_ANSWER_MS / 1000} s`)));
    socket.on('data', (c) => {
      chunks.push(c);
      // One answer is enough; the server may keep the connection open after it.
      const parsed = parseAnswer(Buffer.concat(chunks));
      if (parsed) {
        socket.destroy();
        resolve(parsed);
      }
    });
    socket.on('error', (error: NodeJS.ErrnoException) =>
      error.code === 'ECONNRESET' || error.code === 'EPIPE'
        ? resolve(parseAnswer(Buffer.concat(chunks), true) ?? { status: 0 })
        : reject(error),
    );
    socket.on('close', () => resolve(parseAnswer(Buffer.concat(chunks), true) ?? { status: 0 }));
    socket.write(bytes);
  });
}

/** A complete HTTP answer in `data`, or null while it is still arriving (`ended`: take what there is). */
function parseAnswer(data: Buffer, ended = false): Answer | null {
  const text = data.toString('latin1');
  const headEnd = text.indexOf('\r\n\r\n');
  if (headEnd < 0) return null;
  const head = text.slice(0, headEnd).split('\r\n');
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(head[0])?.[1] ?? 0);
  const header = (name: string) =>
    head
      .find((l) => l.toLowerCase().startsWith(`${name}:`))
      ?.slice(name.length + 1)
      .trim();
  const rest = data.subarray(Buffer.byteLength(text.slice(0, headEnd + 4), 'latin1'));
  // No body follows an informational answer (101 Switching Protocols), a 204 or a 304.
  if (status < 200 || status === 204 || status === 304)
    return { status, body: '', contentType: header('content-type') };
  const length = header('content-length');
  if (length !== undefined) {
    if (rest.length < Number(length))
      return ended ? { status, body: rest.toString(), contentType: header('content-type') } : null;
    return { status, body: rest.subarray(0, Number(length)).toString(), contentType: header('content-type') };
  }
  if (header('transfer-encoding')?.includes('chunked')) {
    const body = dechunk(rest);
    return body === null && !ended
      ? null
      : { status, body: (body ?? rest).toString(), contentType: header('content-type') };
  }
  // No length: the body runs to the end of the connection.
  return ended
    ? { status, body: rest.length > 0 ? rest.toString() : undefined, contentType: header('content-type') }
    : null;
}

function dechunk(data: Buffer): Buffer | null {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const lineEnd = data.indexOf('\r\n', at);
    if (lineEnd < 0) return null;
    const size = Number.parseInt(data.subarray(at, lineEnd).toString(), 16);
    if (Number.isNaN(size)) return null;
    if (size === 0) return Buffer.concat(parts);
    if (data.length < lineEnd + 2 + size) return null;
    parts.push(data.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
}

export interface RawCase {
  name: string;
  /** The target the request names, to know whether the API's error shape applies. */
  url: string;
  bytes: string;
  /** The status the answer must have, when one is specified (a 20 kB header: 431). */
  status?: number;
}

const request = (target: string, headers: string[] = [], body = '') =>
  [`GET ${target} HTTP/1.1`, 'Host: localhost', ...headers, 'Connection: close', '', body].join('\r\n');

/** Requests only a real socket can carry: what the parser and the router refuse before any route runs. */
export const RAW_CASES: RawCase[] = [
  {
    name: 'a 20 kB header',
    url: '/api/health',
    bytes: request('/api/health', [`X-Big: ${'a'.repeat(20_000)}`]),
    status: 431,
  },
  {
    name: '200 headers of 100 bytes',
    url: '/api/posts',
    bytes: request(
      '/api/posts',
      Array.from({ length: 200 }, (_, i) => `X-H${i}: ${'b'.repeat(100)}`),
    ),
    status: 431,
  },
  {
    name: 'a 20 kB cookie',
    url: '/api/auth/session',
    bytes: request('/api/auth/session', [`Cookie: a=${'c'.repeat(20_000)}`]),
    status: 431,
  },
  { name: 'a 20 kB URL', url: '/api/search', bytes: request(`/api/search?q=${'a'.repeat(20_000)}`) },
  { name: 'a 6 kB path parameter', url: '/api/posts/x', bytes: request(`/api/posts/${'a'.repeat(6000)}`) },
  {
    name: 'a 101-character path parameter',
    url: '/api/profiles/x',
    bytes: request(`/api/profiles/${'a'.repeat(101)}`),
  },
  { name: 'broken percent-encoding in a path', url: '/api/posts/x', bytes: request('/api/posts/%E0%A4%A') },
  {
    name: 'broken percent-encoding in a route path',
    url: '/api/posts/x/like',
    bytes: request('/api/posts/%E0%A4%A/like'),
  },
  { name: 'a lone % in a path', url: '/api/conversations/x', bytes: request('/api/conversations/%') },
  { name: 'an encoded NUL in a path', url: '/api/profiles/x', bytes: request('/api/profiles/%00') },
  { name: 'an encoded surrogate in a path', url: '/api/posts/x', bytes: request('/api/posts/%ED%A0%80') },
  { name: 'encoded traversal', url: '/api/posts/x', bytes: request('/api/posts/..%2f..%2f..%2fetc%2fpasswd') },
  { name: 'broken percent-encoding in a query', url: '/api/search', bytes: request('/api/search?q=%E0%A4%A&moods=%') },
  { name: 'a raw NUL in the request line', url: '/api/health', bytes: request('/api/health\u0000') },
  { name: 'a raw space in the path', url: '/api/posts/a b', bytes: request('/api/posts/a b') },
  { name: 'a raw tab in the path', url: '/api/posts/a', bytes: request('/api/posts/a\tb') },
  { name: 'raw UTF-8 in the path', url: '/api/profiles/x', bytes: request('/api/profiles/é😀') },
  {
    name: 'an unknown HTTP version',
    url: '/api/health',
    bytes: request('/api/health').replace('HTTP/1.1', 'HTTP/9.9'),
  },
  { name: 'a lower-case method', url: '/api/health', bytes: request('/api/health').replace('GET', 'get') },
  { name: 'an unknown method', url: '/api/health', bytes: request('/api/health').replace('GET', 'BREW') },
  {
    name: 'a non-numeric Content-Length',
    url: '/api/auth/login',
    bytes: [
      'POST /api/auth/login HTTP/1.1',
      'Host: localhost',
      'Content-Type: application/json',
      'Content-Length: abc',
      'Connection: close',
      '',
      '{}',
    ].join('\r\n'),
  },
  {
    name: 'two Content-Lengths',
    url: '/api/auth/login',
    bytes: [
      'POST /api/auth/login HTTP/1.1',
      'Host: localhost',
      'Content-Type: application/json',
      'Content-Length: 2',
      'Content-Length: 3',
      'Connection: close',
      '',
      '{}',
    ].join('\r\n'),
  },
  {
    name: 'Content-Length and chunked together',
    url: '/api/auth/login',
    bytes: [
      'POST /api/auth/login HTTP/1.1',
      'Host: localhost',
      'Content-Type: application/json',
      'Content-Length: 2',
      'Transfer-Encoding: chunked',
      'Connection: close',
      '',
      '2',
      '{}',
      '0',
      '',
      '',
    ].join('\r\n'),
  },
  {
    name: 'a broken chunk size',
    url: '/api/auth/login',
    bytes: [
      'POST /api/auth/login HTTP/1.1',
      'Host: localhost',
      'Content-Type: application/json',
      'Transfer-Encoding: chunked',
      'Connection: close',
      '',
      'zz',
      '{}',
      '0',
      '',
      '',
    ].join('\r\n'),
  },
  { name: 'a header without a colon', url: '/api/health', bytes: request('/api/health', ['NoColonHere']) },
  { name: 'a header with a NUL', url: '/api/health', bytes: request('/api/health', ['X-A: a\u0000b']) },
  { name: 'an obsolete folded header', url: '/api/health', bytes: request('/api/health', ['X-A: a', ' folded']) },
];
