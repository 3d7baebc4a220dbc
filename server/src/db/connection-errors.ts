/**
 * Tells a database that is unreachable (dropped connection, restart, failover, full server)
 * from a query that is wrong. The first is worth a 503 with `Retry-After`: the same request
 * succeeds once PostgreSQL is back; the second stays a bug (500).
 */

/** SQLSTATEs that mean "the connection, not the statement, failed". Class 08 is matched by prefix. */
const CONNECTION_SQLSTATES = new Set([
  '57P01', // admin_shutdown: pg_terminate_backend, a fast shutdown
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now: the server is starting or in recovery
  '53300', // too_many_connections
]);

/**
 * SQLSTATEs that mean "unavailable" only when FATAL, i.e. raised while connecting: 55000 is then a
 * database refusing connections (ALLOW_CONNECTIONS false); as a statement's ERROR it is a bug.
 */
const FATAL_CONNECTION_SQLSTATES = new Set(['55000']);

/** Socket errors of a peer that went away or cannot be reached. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
]);

/**
 * node-postgres and pg-pool raise these as plain Errors, without a code. Whole messages only:
 * a failed query's message quotes its parameters, which may hold any user text.
 */
const DRIVER_MESSAGES = new Set([
  'Connection terminated unexpectedly',
  'Connection terminated due to connection timeout',
  'Connection terminated', // a query cut short while its client was being closed
  'Client has encountered a connection error and is not queryable',
  'Client was closed and is not queryable',
  'Cannot use a pool after calling end on the pool',
  'timeout exceeded when trying to connect', // every pooled connection is busy or hanging
]);

export function isDatabaseUnavailable(error: unknown): boolean {
  // Drizzle wraps driver errors (DrizzleQueryError.cause); Node wraps failed multi-address
  // connects in an AggregateError. Walk both, once per object.
  const seen = new Set<unknown>();
  const pending = [error];
  while (pending.length > 0) {
    const current = pending.pop();
    if (!(current instanceof Error) || seen.has(current)) continue;
    seen.add(current);
    if (isConnectionFailure(current)) return true;
    pending.push(current.cause);
    if (current instanceof AggregateError) pending.push(...current.errors);
  }
  return false;
}

function isConnectionFailure(error: Error): boolean {
  const code = (error as { code?: unknown }).code;
  if (
    typeof code === 'string' &&
    (CONNECTION_SQLSTATES.has(code) || /^08[0-9A-Z]{3}$/.test(code) || NETWORK_CODES.has(code))
  )
    return true;
  const severity = (error as { severity?: unknown }).severity;
  if (typeof code === 'string' && severity === 'FATAL' && FATAL_CONNECTION_SQLSTATES.has(code)) return true;
  return DRIVER_MESSAGES.has(error.message);
}
