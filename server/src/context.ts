/** What every module receives: configuration and the engines behind one variable each. */
import type { FastifyBaseLogger } from 'fastify';
import { createBus, type EventBus } from './adapters/bus/index.ts';
import { createStorage, type MediaStorage } from './adapters/storage/index.ts';
import { createMailer, type Mailer } from './adapters/mail/mailer.ts';
import { createRateLimitStore, createRateLimiter, type RateLimiter } from './adapters/rate-limit/index.ts';
import type { Config } from './config.ts';
import type { Database } from './db/client.ts';
import { loadServerSecret } from './modules/auth/secret.ts';
import { createSessions, type Identity, type Sessions } from './modules/auth/sessions.ts';
import { deriveKeys, type AuthKeys } from './modules/auth/tokens.ts';
import { createSecurityLog, type LogSecurityEvent } from './modules/security/log.ts';

export interface AppContext {
  config: Config;
  database: Database;
  /** The clock every rule reads (token expiry, grace windows, rate limits); tests move it. */
  now: () => Date;
  mailer: Mailer;
  /** Realtime events to every instance's WebSocket clients (design.md §5). */
  bus: EventBus;
  /** Media files: local disk under DATA_DIR, or S3 when configured. */
  storage: MediaStorage;
  /** `ctx.limits.consume(action, key)` throws the 429 of spec §9. */
  limits: RateLimiter;
  /** Writes the security log; never throws. */
  logSecurityEvent: LogSecurityEvent;
  auth: {
    keys: AuthKeys;
    sessions: Sessions;
    /** The live session's user behind an access token, or null (the guard and WebSocket use it). */
    identify: (accessToken: string) => Promise<Identity | null>;
  };
  close(): Promise<void>;
}

export async function createContext(config: Config, database: Database, log: FastifyBaseLogger, now: () => Date = () => new Date()): Promise<AppContext> {
  const logSecurityEvent = createSecurityLog(database.db, log, now);
  const store = createRateLimitStore(config, database);
  const limits = createRateLimiter({ store, now, logSecurityEvent });
  const mailer = createMailer(config, log, now);
  const keys = deriveKeys(await loadServerSecret(config));
  const bus = await createBus(config, database);
  const storage = createStorage(config);
  const sessions = createSessions({ db: database.db, keys, now, logSecurityEvent, bus, log });
  return {
    config,
    database,
    now,
    mailer,
    bus,
    storage,
    limits,
    logSecurityEvent,
    auth: { keys, sessions, identify: (token) => sessions.identify(token) },
    async close() {
      await Promise.allSettled([store.close(), mailer.close(), bus.close(), storage.dispose?.()]);
    },
  };
}
