/**
 * The processes of each host, started inside its namespace (`ip netns exec`), each writing its
 * output to `<run>/logs/<host>.log`: PostgreSQL (its own cluster, made with initdb), Redis, an
 * S3-compatible store (s3rver), the mail sink, HAProxy and the three MoodMap instances.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { appendFileSync, chmodSync, existsSync, mkdirSync, openSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import webpush from 'web-push';
import { APP_PORT, haproxyConfig } from './haproxy.ts';
import { KILLED } from './leader-log.ts';
import { type AppHost, type HostName, HOSTS, namespaceOf } from './topology.ts';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const PG_BIN = process.env.CLUSTER_PG_BIN ?? '/usr/lib/postgresql/15/bin';
/** s3rver: CLUSTER_S3RVER, else the project's node_modules, else installed apart (`npm install --prefix /tmp/s3peer s3rver`). */
export const S3RVER =
  process.env.CLUSTER_S3RVER ??
  [path.join(root, 'node_modules/s3rver/bin/s3rver.js'), '/tmp/s3peer/node_modules/s3rver/bin/s3rver.js'].find((file) =>
    existsSync(file),
  ) ??
  '/tmp/s3peer/node_modules/s3rver/bin/s3rver.js';
export const S3_BUCKET = 'moodmap';
export const S3_KEY = 'S3RVER';
export const DATABASE = 'moodmap';

export interface Proc {
  host: HostName;
  child: ChildProcess;
  log: string;
}

export class Hosts {
  readonly procs = new Map<HostName, Proc>();
  readonly run: string;
  constructor(run: string) {
    this.run = run;
    mkdirSync(path.join(run, 'logs'), { recursive: true });
  }

  logOf(host: HostName): string {
    return path.join(this.run, 'logs', `${host}.log`);
  }

  start(host: HostName, command: string, args: string[], env: NodeJS.ProcessEnv = {}): Proc {
    const log = this.logOf(host);
    const fd = openSync(log, 'a');
    const child = spawn('ip', ['netns', 'exec', namespaceOf(host), command, ...args], {
      cwd: root,
      env: { ...process.env, ...env },
      stdio: ['ignore', fd, fd],
    });
    const proc = { host, child, log };
    child.once('exit', (code, signal) => appendFileSync(log, `\n[cluster] process exited (${code ?? signal})\n`));
    this.procs.set(host, proc);
    return proc;
  }

  /** SIGKILL of a host's process (the crash case), resolved once it is gone with the moment it was sent. */
  async kill(host: HostName): Promise<number> {
    const proc = this.procs.get(host);
    const at = Date.now();
    if (!proc || proc.child.exitCode !== null || proc.child.signalCode !== null) return at;
    appendFileSync(proc.log, `${JSON.stringify({ time: at, msg: KILLED })}\n`);
    const gone = new Promise((resolve) => proc.child.once('exit', resolve));
    proc.child.kill('SIGKILL');
    await gone;
    return at;
  }

  /** Every process: SIGTERM, then SIGKILL after 5 s. */
  async stopAll(): Promise<void> {
    const alive = [...this.procs.values()].filter((p) => p.child.exitCode === null && p.child.signalCode === null);
    await Promise.all(
      alive.map(async (p) => {
        const gone = new Promise((resolve) => p.child.once('exit', resolve));
        p.child.kill('SIGTERM');
        const timer = setTimeout(() => p.child.kill('SIGKILL'), 5_000);
        await gone;
        clearTimeout(timer);
      }),
    );
  }
}

/** Polls a TCP port from the client host until it accepts (bash's /dev/tcp: no process per probe besides bash). */
export async function waitForPort(
  host: HostName,
  port: number,
  label: string,
  timeoutMs = 120_000,
  proc?: Proc,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      execFileSync(
        'ip',
        ['netns', 'exec', namespaceOf('client'), 'bash', '-c', `exec 3<>/dev/tcp/${HOSTS[host]}/${port}`],
        { stdio: 'ignore' },
      );
      return;
    } catch {
      if (proc && (proc.child.exitCode !== null || proc.child.signalCode !== null))
        throw new Error(`${label} s'est arrêté avant d'écouter (voir ${proc.log})`);
      if (Date.now() > deadline)
        throw new Error(`${label} n'écoute pas sur ${HOSTS[host]}:${port} après ${timeoutMs / 1000} s`);
      await delay(250);
    }
  }
}

/** PostgreSQL refuses to run as root: the cluster's files belong to the `postgres` user. */
export async function startDatabase(hosts: Hosts): Promise<void> {
  const data = path.join(hosts.run, 'pg');
  mkdirSync(data);
  chmodSync(hosts.run, 0o755);
  execFileSync('chown', ['postgres', data]);
  execFileSync(
    'runuser',
    ['-u', 'postgres', '--', path.join(PG_BIN, 'initdb'), '-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync'],
    { stdio: 'ignore' },
  );
  appendFileSync(
    path.join(data, 'postgresql.conf'),
    `\nlisten_addresses = '${HOSTS.db}'\nport = 5432\nunix_socket_directories = '${data}'\nmax_connections = 200\n`,
  );
  appendFileSync(path.join(data, 'pg_hba.conf'), '\nhost all all 10.77.0.0/16 trust\n');
  const proc = hosts.start('db', 'runuser', ['-u', 'postgres', '--', path.join(PG_BIN, 'postgres'), '-D', data]);
  await waitForPort('db', 5432, 'PostgreSQL', 60_000, proc);
  psql(hosts, 'postgres', `create database ${DATABASE}`);
}

/** Runs SQL as `postgres` over the database host's local socket; stops on the first error. */
export function psql(hosts: Hosts, database: string, sql: string): void {
  execFileSync(
    'runuser',
    [
      '-u',
      'postgres',
      '--',
      path.join(PG_BIN, 'psql'),
      '-h',
      path.join(hosts.run, 'pg'),
      '-d',
      database,
      '-v',
      'ON_ERROR_STOP=1',
      '-c',
      sql,
    ],
    { stdio: 'ignore' },
  );
}

export async function startRedis(hosts: Hosts): Promise<void> {
  const dir = path.join(hosts.run, 'redis');
  mkdirSync(dir);
  const proc = hosts.start('redis', 'redis-server', [
    '--bind',
    HOSTS.redis,
    '--port',
    '6379',
    '--save',
    '',
    '--appendonly',
    'no',
    '--protected-mode',
    'no',
    '--dir',
    dir,
  ]);
  await waitForPort('redis', 6379, 'Redis', 30_000, proc);
}

export async function startS3(hosts: Hosts): Promise<void> {
  const dir = path.join(hosts.run, 's3');
  mkdirSync(dir);
  const proc = hosts.start('s3', process.execPath, [
    S3RVER,
    '-d',
    dir,
    '-a',
    HOSTS.s3,
    '-p',
    '4568',
    '-s',
    '--configure-bucket',
    S3_BUCKET,
  ]);
  await waitForPort('s3', 4568, 's3rver', 60_000, proc);
}

export async function startMail(hosts: Hosts): Promise<void> {
  const proc = hosts.start('mail', process.execPath, [path.join(root, 'cluster/mail-sink.ts')], {
    MAIL_SINK_HOST: HOSTS.mail,
  });
  await waitForPort('mail', 8025, 'le puits SMTP', 60_000, proc);
}

export async function startBalancer(hosts: Hosts): Promise<void> {
  const config = path.join(hosts.run, 'haproxy.cfg');
  writeFileSync(config, haproxyConfig());
  const proc = hosts.start('lb', 'haproxy', ['-f', config, '-db']);
  await waitForPort('lb', 80, 'HAProxy', 30_000, proc);
}

export interface Secrets {
  jwt: string;
  vapidPublic: string;
  vapidPrivate: string;
}

export function makeSecrets(): Secrets {
  const vapid = webpush.generateVAPIDKeys();
  return { jwt: randomBytes(32).toString('base64url'), vapidPublic: vapid.publicKey, vapidPrivate: vapid.privateKey };
}

/** What every instance shares (controls.ts changes it to show what a deployment without it breaks). */
export function appEnv(hosts: Hosts, host: AppHost, secrets: Secrets): NodeJS.ProcessEnv {
  const dataDir = path.join(hosts.run, host);
  mkdirSync(dataDir, { recursive: true });
  return {
    NODE_ENV: 'production',
    HOST: HOSTS[host],
    PORT: String(APP_PORT),
    DATA_DIR: dataDir,
    PUBLIC_URL: `http://${HOSTS.lb}`,
    LOG_LEVEL: 'info',
    TRUST_PROXY: '1',
    JWT_SECRET: secrets.jwt,
    VAPID_PUBLIC_KEY: secrets.vapidPublic,
    VAPID_PRIVATE_KEY: secrets.vapidPrivate,
    VAPID_SUBJECT: 'mailto:exploitation@moodmap.test',
    DATABASE_URL: `postgres://postgres@${HOSTS.db}:5432/${DATABASE}`,
    REDIS_URL: `redis://${HOSTS.redis}:6379`,
    BUS_URL: `redis://${HOSTS.redis}:6379`,
    BUS_CHANNEL: 'moodmap:cluster',
    S3_ENDPOINT: `http://${HOSTS.s3}:4568`,
    S3_REGION: 'us-east-1',
    S3_BUCKET,
    S3_ACCESS_KEY_ID: S3_KEY,
    S3_SECRET_ACCESS_KEY: S3_KEY,
    S3_PUBLIC_URL: `http://${HOSTS.s3}:4568/${S3_BUCKET}`,
    SMTP_URL: `smtp://${HOSTS.mail}:25`,
    MAIL_FROM: 'MoodMap <no-reply@moodmap.test>',
    // The developer's shell may point elsewhere: this deployment's engines only.
    MAP_PMTILES: '',
    PUSH_EXTRA_ORIGINS: '',
  };
}

export async function startApp(hosts: Hosts, host: AppHost, env: NodeJS.ProcessEnv): Promise<void> {
  const proc = hosts.start(host, process.execPath, [path.join(root, 'server/src/main.ts')], env);
  await waitForPort(host, APP_PORT, `MoodMap (${host})`, 300_000, proc);
}
