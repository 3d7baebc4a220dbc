/**
 * The real server process (`main.ts`) on PostgreSQL while its database connections are
 * terminated again and again under transactional writes over HTTP: it must stay up, answer
 * only 2xx/4xx or the API's 503, and serve normally once the drops stop.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { MESSAGES, termsAt } from '@moodmap/core';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/client.ts';
import { users } from '../../src/db/schema.ts';
import { hashPassword } from '../../src/modules/auth/passwords.ts';
import { freshEmail, PASSWORD } from '../helpers/auth.ts';
import { createPostgresDatabase, engines } from '../helpers/databases.ts';
import { answersReach, terminateBackends } from '../helpers/db-faults.ts';
import { SAINT_DENIS } from '../interactions/fixtures.ts';

const serverMain = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../src/main.ts');

interface Server {
  base: string;
  child: ChildProcess;
  /** The end of what the process printed, for failure messages. */
  output(): string;
  stop(): Promise<void>;
}

async function startServer(databaseUrl: string, dataDir: string): Promise<Server> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: databaseUrl,
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    WEB_DIST: dataDir,
    LOG_LEVEL: 'info',
  };
  // Rate-limit counters in the fresh database rather than a Redis shared with earlier runs.
  delete env.REDIS_URL;
  const child = spawn(process.execPath, [serverMain], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-20_000);
  };
  child.stderr!.on('data', keep);
  const base = await new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      keep(chunk);
      const match = output.match(/"url":"(http:\/\/127\.0\.0\.1:\d+)"/);
      if (match) resolve(match[1]);
    });
    child.on('exit', (code) => reject(new Error(`server exited (${code}) before listening:\n${output}`)));
  });
  return {
    base,
    child,
    output: () => output,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

interface Answer {
  status: number;
  retryAfter: string | null;
  body: unknown;
}

/** Any answer the caller may get while connections drop; a refused socket or a 500 is not one. */
function unexpected(answer: Answer | Error): string | null {
  if (answer instanceof Error) return `network error: ${answer.message}`;
  const { status, body } = answer;
  const error = (body as { error?: { code?: unknown; message?: unknown } } | null)?.error;
  if (status >= 200 && status < 300) return null;
  if (
    status === 503 &&
    error?.code === 'database_error' &&
    error.message === MESSAGES.database_error &&
    answer.retryAfter === '1'
  )
    return null;
  if (status >= 400 && status < 500 && typeof error?.code === 'string' && typeof error.message === 'string')
    return null;
  return `${status} ${JSON.stringify(body).slice(0, 200)}`;
}

describe.runIf(engines.includes('postgres'))(
  'the server process while its PostgreSQL connections are terminated',
  () => {
    it('stays up under transactional writes and serves again once the drops stop', async () => {
      const { url, drop } = await createPostgresDatabase();
      const dataDir = mkdtempSync(path.join(os.tmpdir(), 'moodmap-db-fault-'));
      let server: Server | undefined;
      try {
        // Schema and members first, straight in the database; the server then starts on it.
        const database = await openDatabase({ databaseUrl: url, poolSize: 2 });
        const emails: string[] = [];
        for (let i = 0; i < 4; i++) {
          const email = freshEmail('panne');
          await database.db.insert(users).values({
            email,
            passwordHash: await hashPassword(PASSWORD),
            emailConfirmedAt: new Date(),
            metadata: { nickname: `Panne${i}` },
            termsVersion: termsAt(new Date()).current.version,
          });
          emails.push(email);
        }
        await database.close();

        server = await startServer(url, dataDir);
        const { base } = server;
        const request = async (method: string, route: string, token?: string, body?: unknown): Promise<Answer> => {
          const res = await fetch(`${base}${route}`, {
            method,
            headers: {
              ...(token ? { authorization: `Bearer ${token}` } : {}),
              ...(body ? { 'content-type': 'application/json' } : {}),
              'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Firefox/128.0',
            },
            body: body ? JSON.stringify(body) : undefined,
          });
          const text = await res.text();
          return {
            status: res.status,
            retryAfter: res.headers.get('retry-after'),
            body: text ? JSON.parse(text) : null,
          };
        };

        const tokens: string[] = [];
        const posts: string[] = [];
        for (const email of emails) {
          const session = await request('POST', '/api/auth/login', undefined, { email, password: PASSWORD });
          expect(session.status, JSON.stringify(session.body)).toBe(200);
          const token = (session.body as { accessToken: string }).accessToken;
          tokens.push(token);
          const post = await request('POST', '/api/posts', token, {
            category: 'happy',
            content: 'Bonjour',
            ...SAINT_DENIS,
          });
          expect(post.status).toBe(201);
          posts.push((post.body as { post: { id: string } }).post.id);
        }

        const pick = <T>(items: T[]) => items[Math.floor(Math.random() * items.length)];
        // The last member writes nothing under load: the faster the machine, the more comments the
        // others send, up to their rate limit (a correct 429), which must not decide the check after.
        const loadTokens = tokens.slice(0, -1);
        const fresh = tokens[tokens.length - 1]!;
        const writes = [
          () => request('POST', `/api/posts/${pick(posts)}/like`, pick(loadTokens)),
          () => request('POST', `/api/posts/${pick(posts)}/like`, pick(loadTokens)),
          () => request('POST', `/api/posts/${pick(posts)}/comments`, pick(loadTokens), { content: 'Toujours là ?' }),
          () => request('POST', `/api/posts/${pick(posts)}/comments`, pick(loadTokens), { content: 'Oui !' }),
          // A second live post is refused (409), after the transaction that checks it.
          () =>
            request('POST', '/api/posts', pick(loadTokens), { category: 'happy', content: 'Encore', ...SAINT_DENIS }),
        ];
        const answers: Array<Answer | Error> = [];
        let stop = false;
        let killed = 0;
        const writers = writes.map(async (write) => {
          while (!stop) answers.push(await write().catch((error: Error) => error));
        });
        try {
          for (let round = 0; round < 8; round++) {
            // Between two drops, every writer has had an answer.
            await answersReach(answers, answers.length + writers.length);
            killed += (await terminateBackends(url)).length;
          }
        } finally {
          stop = true;
          await Promise.all(writers);
        }

        const statuses = answers.reduce<Record<string, number>>((acc, a) => {
          const key = a instanceof Error ? 'network error' : String(a.status);
          return { ...acc, [key]: (acc[key] ?? 0) + 1 };
        }, {});
        console.log(`db-fault (process): ${killed} backends terminated, ${answers.length} answers`, statuses);
        expect(server.child.exitCode, server.output()).toBeNull();
        expect(server.child.signalCode).toBeNull();
        expect(killed).toBeGreaterThan(0);
        expect(answers.map(unexpected).filter(Boolean)).toEqual([]);

        expect((await request('POST', `/api/posts/${posts[0]}/like`, fresh)).status).toBe(200);
        expect((await request('POST', `/api/posts/${posts[0]}/comments`, fresh, { content: 'Revenu' })).status).toBe(
          201,
        );
        expect((await request('GET', '/api/health')).status).toBe(200);
      } finally {
        await server?.stop();
        rmSync(dataDir, { recursive: true, force: true });
        await drop();
      }
    }, 120_000);
  },
);
