/**
 * Mail through a real SMTP peer: an smtp-server on 127.0.0.1 receives the
 * confirmation e-mail, the test reads the link out of the received message and redeems it.
 */
import net from 'node:net';
import { eq } from 'drizzle-orm';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../src/db/schema.ts';
import {
  call,
  createAuthTestApp,
  pathOf,
  refreshCookieOf,
  signUp,
  withRefreshCookie,
  type AuthTestApp,
} from '../helpers/auth.ts';
import { engines } from '../helpers/databases.ts';

interface Received {
  from: string;
  to: string[];
  raw: string;
}

/** Undoes quoted-printable (soft line breaks, =XX bytes) so the body reads as sent. */
function decodeQuotedPrintable(raw: string): string {
  const bytes = raw
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
  return Buffer.from(bytes, 'latin1').toString('utf8');
}

async function startSmtpPeer(): Promise<{ port: number; received: Received[]; close: () => Promise<void> }> {
  const received: Received[] = [];
  const server = new SMTPServer({
    // A plain local peer: no TLS upgrade or login to negotiate.
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as net.AddressInfo).port;
  return { port, received, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

describe.each(engines)('mail over SMTP on %s', (engine) => {
  let t: AuthTestApp;
  let peer: Awaited<ReturnType<typeof startSmtpPeer>>;
  beforeAll(async () => {
    peer = await startSmtpPeer();
    t = await createAuthTestApp(engine, {
      smtpUrl: `smtp://127.0.0.1:${peer.port}`,
      mailFrom: 'MoodMap <no-reply@moodmap.test>',
    });
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await peer?.close();
  });

  it('delivers the confirmation e-mail, whose link confirms the account and signs in', async () => {
    const { res, body } = await signUp(t);
    expect(res.statusCode).toBe(201);

    const mail = peer.received.find((m) => m.to.includes(body.email));
    expect(mail).toBeDefined();
    expect(mail!.from).toBe('no-reply@moodmap.test');
    expect(mail!.raw).toMatch(/^Content-Type: multipart\/alternative/m);
    expect(mail!.raw).toContain('Content-Type: text/plain; charset=utf-8');
    expect(mail!.raw).toContain('Content-Type: text/html; charset=utf-8');
    const text = decodeQuotedPrintable(mail!.raw);
    expect(text).toContain('Bonjour Léa,');
    const link = text.match(/http:\/\/moodmap\.test\/api\/auth\/verify\?type=signup&token=[\w-]+/)?.[0];
    expect(link).toBeDefined();

    const verified = await call(t, { method: 'GET', url: pathOf(link!) });
    expect(verified.statusCode).toBe(302);
    const session = await call(t, {
      method: 'POST',
      url: '/api/auth/refresh',
      headers: withRefreshCookie(refreshCookieOf(verified)),
    });
    expect(session.statusCode).toBe(200);
    expect(session.json().user.email).toBe(body.email);
    const [user] = await t.database.db.select().from(users).where(eq(users.email, body.email));
    expect(user.emailConfirmedAt).not.toBeNull();
  });

  it('has no dev outbox when mail really goes out', async () => {
    expect(t.app.ctx.mailer.outbox).toBeNull();
    expect((await call(t, { method: 'GET', url: '/dev/mail.json' })).statusCode).toBe(404);
  });
});

describe('when the SMTP server is unreachable', () => {
  let t: AuthTestApp;
  beforeAll(async () => {
    // A port nobody listens on: grab one, then close it.
    const probe = net.createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const port = (probe.address() as net.AddressInfo).port;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    t = await createAuthTestApp('pglite', { smtpUrl: `smtp://127.0.0.1:${port}` });
  }, 60_000);
  afterAll(() => t?.close());

  it('fails the sign-up without keeping an account that could never be confirmed', async () => {
    const { res, body } = await signUp(t);
    expect(res.statusCode).toBe(500);
    expect(res.json().error.message).toBe('Une erreur est survenue. Veuillez réessayer.');
    expect(await t.database.db.select().from(users).where(eq(users.email, body.email))).toHaveLength(0);
  });
});
