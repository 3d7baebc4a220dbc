/**
 * Server configuration from environment variables, validated once with zod. Every engine has
 * an embedded default so `npm start` needs nothing; one variable switches each to production.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { MINUTE, MODERATION_HIDE_THRESHOLD_DEFAULT } from '@moodmap/core';
import type { CostMetric } from '@moodmap/core';
import { parseUnitPrices } from './modules/costs/prices.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, '../..');

const optionalString = z.string().trim().min(1).optional().catch(undefined);
const bool = z
  .enum(['1', 'true', 'yes', '0', 'false', 'no', ''])
  .default('')
  .transform((v) => ['1', 'true', 'yes'].includes(v));

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  DATA_DIR: z.string().default('./data'),
  PUBLIC_URL: optionalString,
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  DATABASE_URL: optionalString,
  REDIS_URL: optionalString,
  REDIS_PREFIX: z.string().default('moodmap:rl:'),
  BUS_URL: optionalString,
  BUS_CHANNEL: z.string().trim().min(1).max(200).default('moodmap:events'),
  JWT_SECRET: z.string().min(32, 'JWT_SECRET doit contenir au moins 32 caractères').optional(),
  TRUST_PROXY: bool,
  SMTP_URL: optionalString,
  MAIL_FROM: z.string().default('MoodMap <no-reply@moodmap.local>'),
  ADMIN_EMAIL: optionalString,
  MAP_STYLE_URL: z.url().optional(),
  MAP_STYLE_URL_DARK: z.url().optional(),
  MAP_PMTILES: optionalString,
  S3_ENDPOINT: optionalString,
  S3_REGION: optionalString,
  S3_BUCKET: optionalString,
  S3_ACCESS_KEY_ID: optionalString,
  S3_SECRET_ACCESS_KEY: optionalString,
  S3_PUBLIC_URL: optionalString,
  STRIPE_SECRET_KEY: optionalString,
  STRIPE_WEBHOOK_SECRET: optionalString,
  WEB_DIST: optionalString,
  GEOCODER_MAPBOX_TOKEN: optionalString,
  BODY_LIMIT_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .default(64 * 1024),
  HEADERS_TIMEOUT_MS: z.coerce.number().int().min(100).default(10_000),
  // A whole request, uploads included: a 10 MB photo needs about 1.4 Mbit/s to arrive in 60 s.
  REQUEST_TIMEOUT_MS: z.coerce.number().int().min(100).default(MINUTE),
  KEEP_ALIVE_TIMEOUT_MS: z.coerce.number().int().min(100).default(5_000),
  SOCKET_IDLE_TIMEOUT_MS: z.coerce.number().int().min(100).default(MINUTE),
  MAX_CONNECTIONS_PER_IP: z.coerce.number().int().min(0).optional(),
  /** Distinct reporters after whom a post leaves the map pending review. */
  MODERATION_HIDE_THRESHOLD: z.coerce.number().int().min(1).default(MODERATION_HIDE_THRESHOLD_DEFAULT),
  PLAUSIBLE_URL: z.url().optional(),
  PLAUSIBLE_DOMAIN: optionalString,
  COST_UNIT_PRICES_EUR: optionalString,
  /** Web Push: both keys, or neither (then generated once into DATA_DIR). */
  VAPID_PUBLIC_KEY: optionalString,
  VAPID_PRIVATE_KEY: optionalString,
  VAPID_SUBJECT: optionalString,
  /** Origins of stand-in push services (comma-separated), for a browser journey; never in production. */
  PUSH_EXTRA_ORIGINS: optionalString,
});

export interface Config {
  env: 'development' | 'production' | 'test';
  port: number;
  host: string;
  /** Absolute path; PGlite data, media and the dev outbox live under it. `null` = in memory (tests). */
  dataDir: string | null;
  publicUrl: string;
  logLevel: string;
  databaseUrl?: string;
  redisUrl?: string;
  /** Prefix of the rate-limit keys in Redis (several deployments may share one Redis). */
  redisPrefix: string;
  /** The event bus's engine when not the database's: a Redis server (BUS_URL=redis://…). */
  busUrl?: string;
  /** The Redis bus's channel: Redis pub/sub ignores database numbers, so deployments sharing one Redis need their own. */
  busChannel: string;
  jwtSecret?: string;
  trustProxy: boolean;
  smtpUrl?: string;
  mailFrom: string;
  adminEmail?: string;
  mapStyleUrl?: string;
  mapStyleUrlDark?: string;
  /** A PMTiles basemap (MAP_PMTILES): a local archive the server serves, or an archive's URL. */
  mapPmtiles?: BasemapArchive;
  s3?: {
    endpoint?: string;
    region: string;
    bucket: string;
    accessKeyId: string;
    secretAccessKey: string;
    publicUrl?: string;
  };
  stripe?: { secretKey: string; webhookSecret: string };
  /** Optional reverse geocoder refining the offline land check. */
  geocoderMapboxToken?: string;
  /** Built web app to serve; absent in API-only tests. */
  webDist: string | null;
  /** Largest JSON body in bytes (uploads are multipart and have their own limits). */
  bodyLimit: number;
  /** Slow clients: see server/src/http/connection-limits.ts. */
  timeouts: { headersMs: number; requestMs: number; keepAliveMs: number; socketIdleMs: number };
  /** Concurrent connections one address may hold (WebSockets included); 0 = no ceiling. */
  maxConnectionsPerIp: number;
  moderationHideThreshold: number;
  /** Analytics events are also forwarded to this Plausible server when both are set. */
  plausible?: { url: string; domain: string };
  /** The cost monitor's price of one unit of each metric, in EUR (COST_UNIT_PRICES_EUR). */
  costUnitPrices: Record<CostMetric, number>;
  /** Web Push's VAPID keys and contact (server/src/modules/push/vapid.ts); absent keys are generated. */
  vapid: { publicKey?: string; privateKey?: string; subject?: string };
  /**
   * Origins accepted as push services besides the browsers' own, with no address check when
   * sending: the tests' local stand-in (PUSH_EXTRA_ORIGINS, refused in production).
   */
  pushExtraOrigins: string[];
}

export type BasemapArchive = { kind: 'file'; path: string } | { kind: 'url'; url: string };

export class ConfigError extends Error {}

/** `MAP_PMTILES`: an http(s) URL is the browser's to read; anything else is a path on this machine. */
function basemapArchive(value: string | undefined): BasemapArchive | undefined {
  if (!value) return undefined;
  if (!/^https?:\/\//i.test(value)) return { kind: 'file', path: path.resolve(value) };
  if (!URL.canParse(value))
    throw new ConfigError(`Configuration invalide:\n  MAP_PMTILES: URL invalide / invalid URL (${value})`);
  return { kind: 'url', url: value };
}

/** BUS_URL names a Redis server; the PostgreSQL bus needs no variable (it follows DATABASE_URL). */
function busUrl(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (/^rediss?:\/\//i.test(value) && URL.canParse(value)) return value;
  throw new ConfigError(
    `Configuration invalide:\n  BUS_URL: une URL redis:// ou rediss:// est attendue (${value.split('@').at(-1)})`,
  );
}

type Env = z.infer<typeof envSchema>;

/**
 * Each instance of a production deployment must share these: without them every host would
 * generate its own signing key and VAPID pair into its DATA_DIR, keep its own PGlite, its own
 * media folder, and file its mails in a dev outbox nobody reads. One line per missing variable.
 */
function productionRefusals(e: Env): string[] {
  const required: Array<[keyof Env, string]> = [
    ['JWT_SECRET', 'la clé qui signe les sessions, la même sur chaque instance'],
    ['VAPID_PUBLIC_KEY', 'la paire VAPID des notifications push, la même sur chaque instance'],
    ['VAPID_PRIVATE_KEY', 'la paire VAPID des notifications push, la même sur chaque instance'],
    ['DATABASE_URL', 'la base PostgreSQL partagée (postgres://…)'],
    ['S3_BUCKET', 'le stockage partagé des médias (S3)'],
    ['S3_ACCESS_KEY_ID', 'le stockage partagé des médias (S3)'],
    ['S3_SECRET_ACCESS_KEY', 'le stockage partagé des médias (S3)'],
    ['SMTP_URL', "le serveur d'envoi des e-mails (smtp:// ou smtps://)"],
  ];
  return required
    .filter(([name]) => e[name] === undefined)
    .map(([name, what]) => `${name}: requis en production — ${what}`);
}

/** Stand-in push services skip the address check: a production server must have none. */
function pushExtraOrigins(text: string | undefined, env: Config['env']): string[] {
  if (!text) return [];
  if (env === 'production')
    throw new ConfigError('PUSH_EXTRA_ORIGINS est réservé aux tests : retirez-le en production.');
  const origins = text
    .split(',')
    .map((origin) => origin.trim())
    .filter(Boolean);
  const invalid = origins.find((origin) => !URL.canParse(origin));
  if (invalid) throw new ConfigError(`PUSH_EXTRA_ORIGINS : origine invalide « ${invalid} ».`);
  return origins;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Configuration invalide:\n  ${lines.join('\n  ')}`);
  }
  const e = parsed.data;
  const extraOrigins = pushExtraOrigins(e.PUSH_EXTRA_ORIGINS, e.NODE_ENV);
  const refusals = e.NODE_ENV === 'production' ? productionRefusals(e) : [];
  if (refusals.length > 0) throw new ConfigError(`Configuration invalide:\n  ${refusals.join('\n  ')}`);
  const s3 =
    e.S3_BUCKET && e.S3_ACCESS_KEY_ID && e.S3_SECRET_ACCESS_KEY
      ? {
          endpoint: e.S3_ENDPOINT,
          region: e.S3_REGION ?? 'us-east-1',
          bucket: e.S3_BUCKET,
          accessKeyId: e.S3_ACCESS_KEY_ID,
          secretAccessKey: e.S3_SECRET_ACCESS_KEY,
          publicUrl: e.S3_PUBLIC_URL,
        }
      : undefined;
  const stripe =
    e.STRIPE_SECRET_KEY && e.STRIPE_WEBHOOK_SECRET
      ? { secretKey: e.STRIPE_SECRET_KEY, webhookSecret: e.STRIPE_WEBHOOK_SECRET }
      : undefined;
  return {
    env: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    dataDir: path.resolve(e.DATA_DIR),
    publicUrl: (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/$/, ''),
    logLevel: e.LOG_LEVEL,
    databaseUrl: e.DATABASE_URL,
    redisUrl: e.REDIS_URL,
    redisPrefix: e.REDIS_PREFIX,
    busUrl: busUrl(e.BUS_URL),
    busChannel: e.BUS_CHANNEL,
    jwtSecret: e.JWT_SECRET,
    trustProxy: e.TRUST_PROXY,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    adminEmail: e.ADMIN_EMAIL?.toLowerCase(),
    mapStyleUrl: e.MAP_STYLE_URL,
    mapStyleUrlDark: e.MAP_STYLE_URL_DARK,
    mapPmtiles: basemapArchive(e.MAP_PMTILES),
    s3,
    stripe,
    geocoderMapboxToken: e.GEOCODER_MAPBOX_TOKEN,
    webDist: e.WEB_DIST ? path.resolve(e.WEB_DIST) : path.join(repoRoot, 'web', 'dist'),
    bodyLimit: e.BODY_LIMIT_BYTES,
    timeouts: {
      // Node refuses a headers timeout longer than the whole request's.
      headersMs: Math.min(e.HEADERS_TIMEOUT_MS, e.REQUEST_TIMEOUT_MS),
      requestMs: e.REQUEST_TIMEOUT_MS,
      keepAliveMs: e.KEEP_ALIVE_TIMEOUT_MS,
      socketIdleMs: e.SOCKET_IDLE_TIMEOUT_MS,
    },
    // Behind a proxy every connection comes from the proxy's address: no ceiling unless asked.
    maxConnectionsPerIp: e.MAX_CONNECTIONS_PER_IP ?? (e.TRUST_PROXY ? 0 : 100),
    moderationHideThreshold: e.MODERATION_HIDE_THRESHOLD,
    plausible:
      e.PLAUSIBLE_URL && e.PLAUSIBLE_DOMAIN
        ? { url: e.PLAUSIBLE_URL.replace(/\/$/, ''), domain: e.PLAUSIBLE_DOMAIN }
        : undefined,
    costUnitPrices: parseCostPrices(e.COST_UNIT_PRICES_EUR),
    vapid: { publicKey: e.VAPID_PUBLIC_KEY, privateKey: e.VAPID_PRIVATE_KEY, subject: e.VAPID_SUBJECT },
    pushExtraOrigins: extraOrigins,
  };
}

function parseCostPrices(text: string | undefined) {
  try {
    return parseUnitPrices(text);
  } catch (error) {
    throw new ConfigError(error instanceof Error ? error.message : String(error));
  }
}

/** A config for in-process tests: in-memory PGlite, silent logs, no web app. */
export function testConfig(overrides: Partial<Config> = {}): Config {
  return { ...loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent' }), dataDir: null, webDist: null, ...overrides };
}
