/**
 * Which failures mean "the database is unreachable" (a 503 worth retrying) rather than a bug:
 * real errors from the drivers where they can be produced here, the rest as the drivers shape them.
 */
import net from 'node:net';
import { sql } from 'drizzle-orm';
import { DrizzleQueryError } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/db/client.ts';
import { isDatabaseUnavailable } from '../../src/db/connection-errors.ts';
import { AppError } from '../../src/errors.ts';

/** A pg error as the protocol parser builds it: a message and its SQLSTATE. */
const pgError = (code: string, message = 'erreur') =>
  Object.assign(new pg.DatabaseError(message, 0, 'error'), { code });
const wrapped = (cause: unknown) => new DrizzleQueryError('select 1', [], cause as Error);

describe('isDatabaseUnavailable', () => {
  it('recognises connection-level SQLSTATEs, bare or wrapped by drizzle', () => {
    for (const code of ['57P01', '57P02', '57P03', '53300', '08000', '08003', '08006', '08001', '08004', '08P01']) {
      expect(isDatabaseUnavailable(pgError(code)), code).toBe(true);
      expect(isDatabaseUnavailable(wrapped(pgError(code))), `wrapped ${code}`).toBe(true);
    }
  });

  it('recognises the driver and pool messages of a lost, refused or exhausted connection', () => {
    for (const message of [
      'Connection terminated unexpectedly',
      'Connection terminated due to connection timeout',
      'Client has encountered a connection error and is not queryable',
      'Cannot use a pool after calling end on the pool',
      'timeout exceeded when trying to connect',
    ]) {
      expect(isDatabaseUnavailable(new Error(message)), message).toBe(true);
      expect(isDatabaseUnavailable(wrapped(new Error(message))), `wrapped ${message}`).toBe(true);
    }
    const timeout = new Error('Connection terminated due to connection timeout', {
      cause: new Error('Connection terminated unexpectedly'),
    });
    expect(isDatabaseUnavailable(wrapped(timeout))).toBe(true);
  });

  it('recognises socket errors, also inside an AggregateError', () => {
    for (const code of ['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT']) {
      expect(isDatabaseUnavailable(Object.assign(new Error(`connect ${code}`), { code })), code).toBe(true);
    }
    const refused = Object.assign(new Error('connect ECONNREFUSED ::1:5432'), { code: 'ECONNREFUSED' });
    expect(isDatabaseUnavailable(new AggregateError([refused], ''))).toBe(true);
  });

  it('is true for the real error of a connection refused', async () => {
    const closedPort = await new Promise<number>((resolve) => {
      const server = net.createServer().listen(0, '127.0.0.1', () => {
        const { port } = server.address() as net.AddressInfo;
        server.close(() => resolve(port));
      });
    });
    const client = new pg.Client({ connectionString: `postgres://nobody@127.0.0.1:${closedPort}/none` });
    client.on('error', () => {});
    const error = await client.connect().then(
      () => null,
      (e: unknown) => e,
    );
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it('is false for bugs, bad queries, constraint violations and application errors', () => {
    expect(isDatabaseUnavailable(pgError('23505', 'duplicate key value violates unique constraint'))).toBe(false);
    expect(isDatabaseUnavailable(wrapped(pgError('42P01', 'relation "nowhere" does not exist')))).toBe(false);
    expect(isDatabaseUnavailable(wrapped(pgError('57014', 'canceling statement due to statement timeout')))).toBe(
      false,
    );
    // 55000 means "refusing connections" only as a FATAL raised while connecting.
    expect(
      isDatabaseUnavailable(
        wrapped(
          Object.assign(pgError('55000', 'currval of sequence "s" is not yet defined in this session'), {
            severity: 'ERROR',
          }),
        ),
      ),
    ).toBe(false);
    expect(isDatabaseUnavailable(new TypeError("Cannot read properties of undefined (reading 'id')"))).toBe(false);
    expect(isDatabaseUnavailable(new AppError(409, 'post_active_exists'))).toBe(false);
    expect(isDatabaseUnavailable(undefined)).toBe(false);
    expect(isDatabaseUnavailable('Connection terminated unexpectedly')).toBe(false);
    expect(isDatabaseUnavailable({ code: '57P01' })).toBe(false);
    // A failed query quotes its parameters: user text that reads like a driver message is not one.
    expect(
      isDatabaseUnavailable(
        new DrizzleQueryError(
          'insert into comments (content) values ($1)',
          ['Connection terminated unexpectedly'],
          pgError('23514'),
        ),
      ),
    ).toBe(false);
    // A cycle in the cause chain ends the walk.
    const looped = new Error('boucle');
    looped.cause = new Error('encore', { cause: looped });
    expect(isDatabaseUnavailable(looped)).toBe(false);
  });

  describe('on a real query error (embedded engine)', () => {
    let database: Database;
    beforeAll(async () => {
      database = await openDatabase({ dataDir: null });
    }, 60_000);
    afterAll(() => database?.close());

    it('is false for an unknown table', async () => {
      const error = await database.db.execute(sql`select * from nowhere`).then(
        () => null,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(Error);
      expect(isDatabaseUnavailable(error)).toBe(false);
    });
  });
});
