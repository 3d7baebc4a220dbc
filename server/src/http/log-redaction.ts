/**
 * What the logs must never hold: tokens that travel in URLs (the e-mail links'
 * `/api/auth/verify?token=`, a reloaded `/reset-password?access_token=&refresh_token=`) and the
 * values bound to SQL statements (e-mail addresses, names, message texts), which drizzle puts
 * in its error messages ("Failed query: … params: …").
 *
 * `loggerOptions()` is Fastify's logger configuration with these serializers; they replace the
 * `req` and `err` serializers, so every `log.error({ err })` of the app is covered, not only
 * the error handler's.
 */
import pino, { type LogFn, type Logger } from 'pino';
import { logStream } from './log-output.ts';

/** Query parameters whose value is a secret, whatever their case or separators. */
const SECRET_PARAM =
  /^(token|access_?token|refresh_?token|id_?token|code|password|secret|key|api_?key|signature|sig)$/i;
const REDACTED = '[redacted]';
/** A query that may name a secret parameter: one of SECRET_PARAM's stems, an escape, or a '+'. */
const MAYBE_SECRET = /token|code|password|secret|key|sig|[%+]/i;

/** The URL with the values of token-like query parameters replaced; the path is kept. */
export function redactUrl(url: string): string {
  const mark = url.indexOf('?');
  if (mark < 0) return url;
  // Most URLs (the map's viewport, every request logged twice) name no secret: no need to split
  // them. A name could only hide one behind an escape ('%74oken') or a '+'.
  if (!MAYBE_SECRET.test(url.slice(mark + 1))) return url;
  const query = url
    .slice(mark + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const rawName = eq < 0 ? pair : pair.slice(0, eq);
      let name = rawName;
      try {
        name = decodeURIComponent(rawName.replace(/\+/g, ' '));
      } catch {
        // A malformed escape: judged on its raw form.
      }
      return eq >= 0 && SECRET_PARAM.test(name.trim()) ? `${rawName}=${REDACTED}` : pair;
    });
  return `${url.slice(0, mark)}?${query.join('&')}`;
}

/** A token-like query parameter anywhere in a text (a log message quoting a URL). */
const SECRET_PARAM_IN_TEXT =
  /([?&](?:token|access_?token|refresh_?token|id_?token|code|password|secret|key|api_?key|signature|sig)=)[^&\s"']*/gi;

/** The text with the values of token-like query parameters it quotes replaced. */
export function redactText(text: string): string {
  return text.replace(SECRET_PARAM_IN_TEXT, `$1${REDACTED}`);
}

interface LoggedRequest {
  method?: string;
  url?: string;
  host?: string;
  ip?: string;
  headers?: Record<string, unknown>;
  socket?: { remotePort?: number };
}

/** Fastify's own `req` serializer, with the URL redacted. */
function req(request: LoggedRequest) {
  return {
    method: request.method,
    url: typeof request.url === 'string' ? redactUrl(request.url) : request.url,
    version: request.headers?.['accept-version'] as string | undefined,
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}

/** Fields of a PostgreSQL error that name things (never values). */
const PG_NAMING_FIELDS = [
  'code',
  'severity',
  'schema',
  'table',
  'column',
  'dataType',
  'constraint',
  'routine',
] as const;

interface DbErrorLike extends Error {
  query?: unknown;
  params?: unknown;
  code?: unknown;
  cause?: unknown;
  [field: string]: unknown;
}

const isDrizzleQueryError = (error: DbErrorLike) => typeof error.query === 'string' && 'params' in error;
/** A PostgreSQL server error (pg's DatabaseError, PGlite's): SQLSTATE code plus severity. */
const isPgError = (error: DbErrorLike) =>
  typeof error.code === 'string' && /^[0-9A-Z]{5}$/.test(error.code) && typeof error.severity === 'string';

/** The stack's frames without its first line, which repeats the message. */
const framesOf = (stack: string | undefined) =>
  (stack ?? '')
    .split('\n')
    .filter((line) => line.startsWith('    at '))
    .join('\n');

/**
 * PostgreSQL quotes the offending value at the end of some messages
 * (`invalid input syntax for type uuid: "…"`); that value is cut.
 */
const pgMessage = (message: string) => message.replace(/: ".*"$/s, `: "${REDACTED}"`);

/**
 * A database error as it may be logged: the statement's text (placeholders, no values), the
 * SQLSTATE code and the names of what failed; never `params`, pg's `detail` (which repeats
 * the conflicting key's value) or `where`. Null for any other error.
 */
export function redactDatabaseError(error: unknown): SerializedError | null {
  if (!(error instanceof Error)) return null;
  const e = error as DbErrorLike;
  if (!isDrizzleQueryError(e) && !isPgError(e)) return null;
  const cause = e.cause instanceof Error ? (e.cause as DbErrorLike) : undefined;
  const pg = isPgError(e) ? e : cause && isPgError(cause) ? cause : undefined;
  const safe: SerializedError = {
    type: e.constructor?.name ?? 'Error',
    message: isDrizzleQueryError(e) ? `Failed query: ${e.query as string}` : pgMessage(e.message),
    stack: framesOf(e.stack),
  };
  if (isDrizzleQueryError(e)) safe.query = e.query;
  if (pg) {
    for (const field of PG_NAMING_FIELDS) if (pg[field] !== undefined) safe[field] = pg[field];
    if (pg !== e) safe.cause = { type: pg.constructor?.name ?? 'Error', message: pgMessage(pg.message) };
  } else if (cause) {
    // A connection error or the like under the drizzle wrapper: no SQL values in it.
    safe.cause = pino.stdSerializers.err(cause);
  }
  return safe;
}

/** The shape Fastify expects of an `err` serializer. */
interface SerializedError {
  type: string;
  message: string;
  stack: string;
  [key: string]: unknown;
}

function err(error: Error): SerializedError {
  return redactDatabaseError(error) ?? (pino.stdSerializers.err(error) as SerializedError);
}

export const logSerializers = { req, err };

/**
 * Fastify's logger options: the level, these serializers, headers that carry credentials
 * redacted, and the process's one log stream (log-output.ts: readable lines on a terminal).
 */
export function loggerOptions(level: string) {
  return {
    level,
    stream: logStream(),
    serializers: logSerializers,
    redact: ['req.headers.authorization', 'req.headers.cookie', 'res.headers["set-cookie"]'],
    hooks: {
      // Messages that quote a URL (Fastify's "Route GET:/…?token=… not found") are redacted too.
      logMethod(this: Logger, args: Parameters<LogFn>, method: LogFn) {
        const redacted = args.map((arg) => (typeof arg === 'string' ? redactText(arg) : arg)) as Parameters<LogFn>;
        method.apply(this, redacted);
      },
    },
  };
}

/** A logger with the same options outside Fastify: the start's lines before the app exists. */
export function createLogger(level: string): Logger {
  const { stream, ...options } = loggerOptions(level);
  return pino(options, stream);
}
