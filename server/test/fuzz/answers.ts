/**
 * What every answer to a hostile request must look like (docs/api.md): never
 * a 5xx, never a stack trace, and under /api every error in the API's shape
 * `{ error: { code, message } }` with a French catalogue text — never Fastify's English
 * `{ statusCode, error, message }` nor an `FST_` code.
 */
import { MESSAGES } from '@moodmap/core';

export interface Answer {
  status: number;
  /** Undefined when the server closed the connection without answering (raw HTTP only). */
  body?: string;
  contentType?: string;
}

/** Catalogue texts, and the templates with `{placeholders}` as patterns. */
const TEXTS = new Set<string>(Object.values(MESSAGES));
const TEMPLATES = Object.values(MESSAGES)
  .filter((m) => /\{\w+\}/.test(m))
  .map(
    (m) =>
      new RegExp(
        `^${m
          .split(/\{\w+\}/)
          .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
          .join('.+')}$`,
        's',
      ),
  );
const isCatalogueText = (message: string) => TEXTS.has(message) || TEMPLATES.some((re) => re.test(message));

/** Fields an error may carry beside code and message (a 409 nickname_blocked's date). */
const DETAIL_FIELDS = new Set(['nextAllowedAt']);

/** A V8 stack frame: "    at fn (/path/file.ts:12:5)" or "at /path/file.js:3:1". */
const STACK_FRAME = /\bat (?:[^\s()]+ )?\(?(?:file:\/\/|node:|\/)[^\s()]*:\d+:\d+\)?/;

export const isApiPath = (url: string) => url === '/api' || url.startsWith('/api/') || url.startsWith('/api?');

/** The problem with an answer, or null when it is acceptable. */
export function problemWith(method: string, url: string, answer: Answer): string | null {
  if (answer.status >= 500) return `server error ${answer.status}`;
  const body = answer.body ?? '';
  if (STACK_FRAME.test(body)) return 'stack trace in the answer';
  if (answer.status < 400 || !isApiPath(url) || method === 'HEAD') return null;
  if (answer.body === undefined) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return 'error answer is not JSON';
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed))
    return 'error answer is not a JSON object';
  const top = parsed as Record<string, unknown>;
  if ('statusCode' in top || typeof top.error === 'string') return "Fastify's English error format";
  if (Object.keys(top).join(',') !== 'error') return `error answer has keys ${Object.keys(top).join(',')}`;
  const error = top.error as Record<string, unknown> | null;
  if (!error || typeof error !== 'object') return 'error is not an object';
  if (typeof error.code !== 'string' || typeof error.message !== 'string')
    return 'error lacks a string code or message';
  if (/^FST_/i.test(error.code)) return `Fastify code ${error.code}`;
  if (!/^[a-z][a-z0-9_]*$/.test(error.code)) return `code is not a snake_case key: ${error.code}`;
  if (!isCatalogueText(error.message)) return 'message is not a French catalogue text';
  const extra = Object.keys(error).filter((k) => k !== 'code' && k !== 'message' && !DETAIL_FIELDS.has(k));
  if (extra.length > 0) return `error has extra fields ${extra.join(',')}`;
  return null;
}

export interface Failure {
  problem: string;
  /** `POST /api/posts/:id/like` */
  route: string;
  status: number;
  /** The answer's error code (or the start of its body): failures with the same one are one defect. */
  answerKey: string;
  request: string;
  answer: string;
}

export function failureOf(problem: string, route: string, request: string, answer: Answer): Failure {
  const body = answer.body ?? '<connection closed without an answer>';
  let answerKey = body.slice(0, 80);
  try {
    const parsed = JSON.parse(body) as { error?: { code?: string } | string; code?: string };
    answerKey = typeof parsed.error === 'object' ? String(parsed.error?.code) : String(parsed.code ?? parsed.error);
  } catch {
    /* not JSON: the start of the body */
  }
  return {
    problem,
    route,
    status: answer.status,
    answerKey,
    request,
    answer: body.length > 400 ? `${body.slice(0, 400)}… (${body.length} chars)` : body,
  };
}

/**
 * One entry per distinct defect (problem, route, status, error code), with how often it was seen
 * and its first example: the list a reader fixes from.
 */
export function report(failures: Failure[]): string {
  const groups = new Map<string, { count: number; first: Failure }>();
  for (const f of failures) {
    const key = `${f.problem} | ${f.route} | ${f.status} | ${f.answerKey}`;
    const group = groups.get(key);
    if (group) group.count += 1;
    else groups.set(key, { count: 1, first: f });
  }
  const lines = [`${failures.length} bad answers, ${groups.size} distinct:`];
  for (const [key, { count, first }] of groups) {
    lines.push('', `■ ${key}  (×${count})`, first.request, `  answer ${first.status}: ${first.answer}`);
  }
  return lines.join('\n');
}
