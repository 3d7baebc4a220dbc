/**
 * A production start refuses what would split a deployment in two: a signing key, a VAPID pair,
 * a database, a media store or a mail server of each host's own. Each missing variable is named
 * on a line of its own; nothing is refused outside production. BUS_URL names a Redis server.
 */
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.ts';

const PRODUCTION: NodeJS.ProcessEnv = {
  NODE_ENV: 'production',
  JWT_SECRET: 'un-secret-de-production-assez-long-0123456789',
  VAPID_PUBLIC_KEY: 'BPublicKeyOfTheDeployment',
  VAPID_PRIVATE_KEY: 'privateKeyOfTheDeployment',
  DATABASE_URL: 'postgres://moodmap@db.example.org:5432/moodmap',
  S3_BUCKET: 'moodmap-media',
  S3_ACCESS_KEY_ID: 'AKIDEXAMPLE',
  S3_SECRET_ACCESS_KEY: 'secret-example',
  SMTP_URL: 'smtps://moodmap:pass@smtp.example.org:465',
};

const REQUIRED = [
  'JWT_SECRET',
  'VAPID_PUBLIC_KEY',
  'VAPID_PRIVATE_KEY',
  'DATABASE_URL',
  'S3_BUCKET',
  'S3_ACCESS_KEY_ID',
  'S3_SECRET_ACCESS_KEY',
  'SMTP_URL',
];

/** The message of the ConfigError `env` is refused with. */
function refusal(env: NodeJS.ProcessEnv): string {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.message;
    throw error;
  }
  throw new Error('the configuration was accepted');
}

const without = (...names: string[]) =>
  Object.fromEntries(Object.entries(PRODUCTION).filter(([name]) => !names.includes(name)));

describe('a production start', () => {
  it('starts with every shared engine named', () => {
    const config = loadConfig(PRODUCTION);
    expect(config.env).toBe('production');
    expect(config.jwtSecret).toBe(PRODUCTION.JWT_SECRET);
    expect(config.s3?.bucket).toBe('moodmap-media');
  });

  it.each(REQUIRED)('refuses without %s, naming it on one line', (name) => {
    const lines = refusal(without(name)).split('\n');
    expect(lines[0]).toBe('Configuration invalide:');
    expect(lines.slice(1)).toHaveLength(1);
    expect(lines[1]).toMatch(new RegExp(`^  ${name}: requis en production — `));
  });

  it('names every missing variable at once, one line each, in a fixed order', () => {
    const lines = refusal({ NODE_ENV: 'production' }).split('\n').slice(1);
    expect(lines.map((line) => line.trim().split(':')[0])).toEqual(REQUIRED);
  });

  it('counts an empty variable as missing', () => {
    expect(refusal({ ...PRODUCTION, SMTP_URL: '  ', S3_BUCKET: '' })).toMatch(
      /^ {2}S3_BUCKET: requis en production.*\n {2}SMTP_URL: requis en production/m,
    );
  });

  it('refuses nothing of the kind outside production', () => {
    for (const env of ['development', 'test'] as const) {
      const config = loadConfig({ NODE_ENV: env });
      expect(config.jwtSecret).toBeUndefined();
      expect(config.databaseUrl).toBeUndefined();
      expect(config.s3).toBeUndefined();
    }
  });
});

describe('BUS_URL', () => {
  it('is absent by default: the bus follows the database', () => {
    expect(loadConfig({ NODE_ENV: 'development' }).busUrl).toBeUndefined();
    expect(loadConfig({ NODE_ENV: 'development' }).busChannel).toBe('moodmap:events');
  });

  it('takes a redis:// or rediss:// URL and a channel of the deployment', () => {
    const config = loadConfig({
      NODE_ENV: 'development',
      BUS_URL: 'rediss://:pass@cache.example.org:6380',
      BUS_CHANNEL: 'moodmap-prod:events',
    });
    expect(config.busUrl).toBe('rediss://:pass@cache.example.org:6380');
    expect(config.busChannel).toBe('moodmap-prod:events');
  });

  it('refuses any other URL without printing its password', () => {
    const message = refusal({
      NODE_ENV: 'development',
      BUS_URL: 'postgres://moodmap:motdepasse@db.example.org/moodmap',
    });
    expect(message).toMatch(/^ {2}BUS_URL: une URL redis:\/\/ ou rediss:\/\/ est attendue/m);
    expect(message).not.toContain('motdepasse');
  });
});
