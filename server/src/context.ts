/** What every module receives: configuration and the engines behind one variable each. */
import type { FastifyBaseLogger } from 'fastify';
import { createBus, type EventBus } from './adapters/bus/index.ts';
import { createLeader, type Leader } from './adapters/leader/index.ts';
import { createStorage, type MediaStorage } from './adapters/storage/index.ts';
import { createMailer, type Mailer } from './adapters/mail/mailer.ts';
import { createPayments, type PaymentProvider } from './adapters/payments/index.ts';
import { createRateLimitStore, createRateLimiter, type RateLimiter } from './adapters/rate-limit/index.ts';
import type { Config } from './config.ts';
import type { Database } from './db/client.ts';
import { loadServerSecret } from './modules/auth/secret.ts';
import { createSessions, type Identity, type Sessions } from './modules/auth/sessions.ts';
import { deriveKeys, type AuthKeys } from './modules/auth/tokens.ts';
import { createSecurityLog, type LogSecurityEvent } from './modules/security/log.ts';
import { createAnalyticsForwarder } from './adapters/analytics/index.ts';
import { createAnalyticsRecorder, type AnalyticsRecorder } from './modules/analytics/recorder.ts';
import { createCosts, type CostMonitor } from './modules/costs/index.ts';
import { loadGeoEngine, type GeoEngine } from './modules/geo/geo-engine.ts';
import { countStorageOperations } from './modules/costs/storage.ts';

export interface AppContext {
  config: Config;
  database: Database;
  /** The clock every rule reads (token expiry, grace windows, rate limits); tests move it. */
  now: () => Date;
  mailer: Mailer;
  /** Realtime events to every instance's WebSocket clients (docs/architecture.md, A realtime event). */
  bus: EventBus;
  /** Periodic work done once per deployment: `leader.every(...)` runs only on the leading instance. */
  leader: Leader;
  /** The land check and the place search, on the prebuilt geo data (server/geodata). */
  geo: GeoEngine;
  /** Media files: local disk under DATA_DIR, or S3 when configured. */
  storage: MediaStorage;
  /** `ctx.limits.consume(action, key)` throws the 429 of a limit reached (docs/product.md, Limits). */
  limits: RateLimiter;
  /** Pulse payments: Stripe, the dev checkout, or null (production without Stripe keys). */
  payments: PaymentProvider | null;
  /** Writes the security log; never throws. */
  logSecurityEvent: LogSecurityEvent;
  /** First-party analytics, forwarded to Plausible when configured. */
  analytics: AnalyticsRecorder;
  /** Daily usage counters, caps and emergency mode (docs/product.md, Limits). */
  costs: CostMonitor;
  auth: {
    keys: AuthKeys;
    sessions: Sessions;
    /** The live session's user behind an access token, or null (the guard and WebSocket use it). */
    identify: (accessToken: string) => Promise<Identity | null>;
  };
  close(): Promise<void>;
}

export async function createContext(
  config: Config,
  database: Database,
  log: FastifyBaseLogger,
  now: () => Date = () => new Date(),
  /** Tests pass a small engine of their own; the app opens the prebuilt files. */
  geo: GeoEngine = loadGeoEngine(),
): Promise<AppContext> {
  const logSecurityEvent = createSecurityLog(database.db, log, now);
  const store = createRateLimitStore(config, database);
  const limits = createRateLimiter({ store, now, logSecurityEvent });
  const mailer = createMailer(config, log, now);
  const serverSecret = await loadServerSecret(config);
  const keys = deriveKeys(serverSecret);
  const payments = createPayments(config, serverSecret);
  const bus = await createBus(config, database, log);
  const leader = await createLeader(database, log);
  const costs = createCosts(config, database, now, logSecurityEvent, log, bus);
  costs.followLeader(leader);
  const storage = countStorageOperations(createStorage(config), costs);
  const analytics = createAnalyticsRecorder(
    database.db,
    now,
    createAnalyticsForwarder(config, (err) => log.warn({ err }, 'analytics forwarding failed')),
    (err) => log.warn({ err }, 'analytics event not stored'),
  );
  const sessions = createSessions({ db: database.db, keys, now, logSecurityEvent, bus, log });
  return {
    config,
    database,
    now,
    mailer,
    bus,
    leader,
    geo,
    storage,
    limits,
    payments,
    logSecurityEvent,
    analytics,
    costs,
    auth: { keys, sessions, identify: (token) => sessions.identify(token) },
    async close() {
      // First: a job under way may still publish, store or count.
      await leader.close().catch(() => {});
      await Promise.allSettled([costs.close(), store.close(), mailer.close(), bus.close(), storage.dispose?.()]);
    },
  };
}
