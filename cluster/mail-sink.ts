/**
 * The cluster's mail host: an SMTP peer that keeps what the instances send (production mode
 * needs SMTP_URL), and a small HTTP answer with the links of the mails to one address, which
 * the workload opens as a person opens the confirmation link in their inbox.
 *   SMTP on MAIL_SINK_HOST:25, HTTP GET /links?to=<address> → ["http://…", …] on :8025.
 */
import http from 'node:http';
import { SMTPServer } from 'smtp-server';

const host = process.env.MAIL_SINK_HOST ?? '127.0.0.1';
const linksTo = new Map<string, string[]>();

/** Quoted-printable soft breaks and =XX bytes undone, so links read as sent. */
function decodeQuotedPrintable(raw: string): string {
  const bytes = raw
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
  return Buffer.from(bytes, 'latin1').toString('utf8');
}

const smtp = new SMTPServer({
  // A plain peer on a private link: no TLS upgrade or login to negotiate.
  disabledCommands: ['STARTTLS', 'AUTH'],
  logger: false,
  onData(stream, session, callback) {
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('end', () => {
      const text = decodeQuotedPrintable(Buffer.concat(chunks).toString('utf8'));
      const links = [...new Set(text.match(/https?:\/\/[^\s"'<>]+/g) ?? [])];
      for (const rcpt of session.envelope.rcptTo) {
        const address = rcpt.address.toLowerCase();
        linksTo.set(address, [...(linksTo.get(address) ?? []), ...links]);
      }
      callback();
    });
  },
});
smtp.listen(25, host);

http
  .createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://sink');
    const to = (url.searchParams.get('to') ?? '').toLowerCase();
    response.setHeader('content-type', 'application/json');
    response.end(JSON.stringify(linksTo.get(to) ?? []));
  })
  .listen(8025, host);

process.on('SIGTERM', () => process.exit(0));
