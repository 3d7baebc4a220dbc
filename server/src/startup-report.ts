/**
 * What the start says in its lines: which database and engines it opened, and the address to
 * open in a browser — the one the server really listens on, not PUBLIC_URL.
 */
import { existsSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Config } from './config.ts';
import type { AppContext } from './context.ts';

const decimal = new Intl.NumberFormat('fr-FR', { maximumFractionDigits: 1 });

/** Seconds with a French decimal comma: "1,9 s". */
export const seconds = (ms: number) => `${decimal.format(ms / 1000)} s`;

/** The database's engine and where it lives; never a connection string's credentials. */
export function describeDatabase(config: Pick<Config, 'databaseUrl' | 'dataDir'>): string {
  if (config.databaseUrl)
    return `PostgreSQL ${URL.canParse(config.databaseUrl) ? new URL(config.databaseUrl).host : ''}`.trim();
  return config.dataDir ? `PGlite dans ${path.join(config.dataDir, 'pglite')}` : 'PGlite en mémoire';
}

/** The engines the context picked from the configuration. */
export function describeEngines(ctx: Pick<AppContext, 'storage' | 'mailer' | 'payments' | 'geo'>): string {
  const media = ctx.storage.kind === 's3' ? 'S3' : 'disque local';
  const mail = ctx.mailer.outbox ? 'boîte de développement (/dev/mail)' : 'SMTP';
  const payments = ctx.payments ? ctx.payments.kind : 'aucun';
  return `médias ${media}, e-mails ${mail}, paiements ${payments}, géographie ${ctx.geo.summary}`;
}

/** A warning when there is no built web app to serve (only the API answers), else null. */
export function missingWebApp(webDist: string | null): string | null {
  if (webDist === null || existsSync(path.join(webDist, 'index.html'))) return null;
  return `Aucune application web construite dans ${webDist} : ce serveur ne répond qu'à l'API (« npm run build » la construit)`;
}

/** host:port as in a URL (an IPv6 address in brackets). */
const hostPort = ({ address, port, family }: AddressInfo) =>
  family === 'IPv6' ? `[${address}]:${port}` : `${address}:${port}`;

/**
 * The URL to open on this machine: a server bound to every interface (0.0.0.0, ::) answers on
 * localhost; one bound to a single address answers only there.
 */
export function localUrl(bound: AddressInfo): string {
  const everywhere = bound.address === '0.0.0.0' || bound.address === '::';
  return everywhere ? `http://localhost:${bound.port}` : `http://${hostPort(bound)}`;
}

/** The ready line: where to open the app, the bound address, PUBLIC_URL when it differs, Node, time. */
export function readyLine(bound: AddressInfo, publicUrl: string, startedMs: number): string {
  const url = localUrl(bound);
  const pub = publicUrl === url ? '' : `, adresse publique ${publicUrl}`;
  return `MoodMap prêt sur ${url} (à l'écoute sur ${hostPort(bound)}${pub}) — Node ${process.version}, démarré en ${seconds(startedMs)}`;
}
