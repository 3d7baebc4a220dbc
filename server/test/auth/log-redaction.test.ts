/**
 * Secrets stay out of the logs: tokens in URLs (the e-mail links, a reloaded
 * reset page) and the values bound to SQL statements (an e-mail address in a failed insert).
 * The app's real auth routes and error handler, with the logger options of log-redaction.ts
 * writing to a captured stream.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testConfig } from '../../src/config.ts';
import { createContext } from '../../src/context.ts';
import type { Database } from '../../src/db/client.ts';
import { users } from '../../src/db/schema.ts';
import { installErrorHandler } from '../../src/http/error-handler.ts';
import { loggerOptions, redactDatabaseError, redactUrl } from '../../src/http/log-redaction.ts';
import { installRequestLog, requestLogController } from '../../src/http/request-log.ts';
import authRoutes from '../../src/modules/auth/routes.ts';
import { installAuthGuard } from '../../src/modules/auth/guard.ts';
import { createTestDatabase, engines } from '../helpers/databases.ts';

describe('redactUrl', () => {
  it.each([
    ['/api/auth/verify?type=signup&token=SECRET', '/api/auth/verify?type=signup&token=[redacted]'],
    [
      '/reset-password?access_token=A.B.C&refresh_token=R&type=recovery',
      '/reset-password?access_token=[redacted]&refresh_token=[redacted]&type=recovery',
    ],
    ['/x?Refresh%5FToken=R&code=C&q=café', '/x?Refresh%5FToken=[redacted]&code=[redacted]&q=café'],
    ['/x?%E0%A4%A=1&token=T', '/x?%E0%A4%A=1&token=[redacted]'],
    ['/api/posts?since=2025-01-01', '/api/posts?since=2025-01-01'],
    // A secret's name behind escapes or a '+' is still found (the fast path keeps these URLs).
    ['/x?%74%6Fken=T&a=1', '/x?%74%6Fken=[redacted]&a=1'],
    ['/x?+token=T', '/x?+token=[redacted]'],
    [
      '/api/posts/viewport?west=2.2&south=48.8&east=2.4&north=48.9&zoom=12',
      '/api/posts/viewport?west=2.2&south=48.8&east=2.4&north=48.9&zoom=12',
    ],
    ['/api/auth/verify', '/api/auth/verify'],
  ])('%s', (url, expected) => {
    expect(redactUrl(url)).toBe(expected);
  });
});

describe.each(engines)('logs on %s', (engine) => {
  let database: Database;
  let app: FastifyInstance;
  const lines: string[] = [];
  const logged = () => lines.join('');

  beforeAll(async () => {
    database = await createTestDatabase(engine);
    // Logged as app.ts does: the redacting serializers, one line per request.
    app = Fastify({
      logger: { ...loggerOptions('info'), stream: { write: (line: string) => void lines.push(line) } },
      logController: requestLogController(),
    });
    installRequestLog(app);
    app.setValidatorCompiler(validatorCompiler);
    app.setSerializerCompiler(serializerCompiler);
    const ctx = await createContext(testConfig({ publicUrl: 'http://moodmap.test' }), database, app.log);
    installErrorHandler(app);
    installAuthGuard(app, ctx.auth.identify);
    await app.register(authRoutes, { ctx });
    // A write that fails in the database with an e-mail address among its parameters.
    app.post('/api/__duplicate', async () => {
      const row = { email: 'lea.secrete@example.fr', passwordHash: 'x', metadata: {} };
      await database.db.insert(users).values(row);
      await database.db.insert(users).values(row);
      return {};
    });
    app.addHook('onClose', () => ctx.close());
    await app.ready();
  }, 60_000);
  afterAll(async () => {
    await app?.close();
    await database?.close();
  });

  it('keeps the path of a link but not its token', async () => {
    const res = await app.inject('/api/auth/verify?type=signup&token=SECRET-TOKEN-123');
    expect(res.statusCode).toBe(302);
    await app.inject('/reset-password?access_token=ACCESS-SECRET&refresh_token=REFRESH-SECRET&type=recovery');
    expect(logged()).toContain('/api/auth/verify?type=signup&token=[redacted]');
    expect(logged()).toContain('/reset-password?access_token=[redacted]');
    for (const secret of ['SECRET-TOKEN-123', 'ACCESS-SECRET', 'REFRESH-SECRET'])
      expect(logged()).not.toContain(secret);
  });

  it('writes one line per request, with its redacted URL, status and time', async () => {
    lines.length = 0;
    await app.inject('/api/auth/verify?type=signup&token=ONE-LINE-SECRET');
    const logLines = lines.map((l) => JSON.parse(l));
    expect(logLines).toHaveLength(1);
    expect(logLines[0]).toMatchObject({
      msg: 'request completed',
      req: { method: 'GET', url: '/api/auth/verify?type=signup&token=[redacted]' },
      res: { statusCode: 302 },
    });
    expect(logLines[0].responseTime).toBeGreaterThanOrEqual(0);
  });

  it('logs a failed statement by its text and SQLSTATE, never its parameters', async () => {
    const res = await app.inject({ method: 'POST', url: '/api/__duplicate' });
    expect(res.statusCode).toBeGreaterThanOrEqual(500);
    const errorLine = lines.map((l) => JSON.parse(l)).find((l) => l.err);
    expect(errorLine.err.query).toMatch(/^insert into "users"/);
    expect(errorLine.err.code).toBe('23505');
    expect(errorLine.err.constraint).toBeTruthy();
    expect(logged()).not.toContain('lea.secrete');
  });
});

describe('redactDatabaseError', () => {
  it('leaves other errors alone', () => {
    const error = new Error('boom');
    expect(redactDatabaseError(error)).toBeNull();
  });

  it('cuts the value PostgreSQL quotes at the end of a message', () => {
    const pgError = Object.assign(new Error('invalid input syntax for type uuid: "lea@example.fr"'), {
      code: '22P02',
      severity: 'ERROR',
    });
    expect(redactDatabaseError(pgError)).toMatchObject({
      message: 'invalid input syntax for type uuid: "[redacted]"',
      code: '22P02',
    });
  });
});
