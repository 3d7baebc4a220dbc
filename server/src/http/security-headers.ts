/**
 * Security headers (helmet) with a CSP that lets MapLibre run its worker and load tiles.
 *
 * helmet's middleware is built once and run from one onRequest hook. @fastify/helmet calls
 * helmet(options) anew for every request: that re-validates the options and re-serialises the
 * CSP each time, a visible share of the server's CPU under load.
 */
import helmet from 'helmet';
import type { FastifyInstance } from 'fastify';
import { bucketBaseUrl } from '../adapters/storage/index.ts';
import type { Config } from '../config.ts';

export async function installSecurityHeaders(app: FastifyInstance, config: Config): Promise<void> {
  // Media from the bucket (or its CDN) come from these origins, named one by one.
  const mediaOrigins = [config.s3?.publicUrl, config.s3 ? bucketBaseUrl(config.s3) : undefined];
  const styleUrls = [config.mapStyleUrl, config.mapStyleUrlDark].filter((u): u is string => Boolean(u));
  // A PMTiles archive on another host (MAP_PMTILES as a URL) is fetched by the page itself.
  const archiveUrls = config.mapPmtiles?.kind === 'url' ? [config.mapPmtiles.url] : [];
  const external = [
    ...new Set(
      [...mediaOrigins, ...styleUrls, ...archiveUrls]
        .filter((u): u is string => Boolean(u))
        .map((u) => new URL(u).origin),
    ),
  ];
  // A configured basemap style names its tile, glyph and sprite hosts inside the style, which
  // the server never reads: with one, any https host is allowed for those. Never plain ws:/wss:
  // — the realtime socket is same-origin, which 'self' covers (CSP 3 matches ws:/wss: of the
  // page's own host and port with 'self', and ws: upgraded to wss:).
  const remote = styleUrls.length > 0 ? ['https:'] : [];
  const setHeaders = helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:', ...remote, ...external],
        mediaSrc: ["'self'", 'blob:', ...remote, ...external],
        connectSrc: ["'self'", ...remote, ...external],
        workerSrc: ["'self'", 'blob:'],
        fontSrc: ["'self'", 'data:', ...remote],
        objectSrc: ["'none'"],
        frameAncestors: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
      },
    },
    // Cross-origin isolation would block map tiles and images from a CDN.
    crossOriginEmbedderPolicy: false,
    // The Pulse checkout opens in a popup the page polls until it closes: with
    // 'same-origin' the popup would lose its opener as soon as it shows the payment page.
    crossOriginOpenerPolicy: { policy: 'same-origin-allow-popups' },
    crossOriginResourcePolicy: { policy: 'same-site' },
    hsts: config.env === 'production',
  });
  app.addHook('onRequest', (request, reply, done) => {
    setHeaders(request.raw, reply.raw, (error) => done(error instanceof Error ? error : undefined));
  });
}
