/** Security headers (helmet) with a CSP that lets MapLibre run its worker and load tiles. */
import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';
import { bucketBaseUrl } from '../adapters/storage/index.ts';
import type { Config } from '../config.ts';

export async function installSecurityHeaders(app: FastifyInstance, config: Config): Promise<void> {
  // A configured basemap style may pull tiles, glyphs and sprites from its own hosts.
  const external = [config.mapStyleUrl, config.mapStyleUrlDark, config.s3?.publicUrl, config.s3 ? bucketBaseUrl(config.s3) : undefined]
    .filter((u): u is string => Boolean(u))
    .map((u) => new URL(u).origin);
  const remote = external.length > 0 ? ['https:'] : [];
  await app.register(helmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:', ...remote],
        mediaSrc: ["'self'", 'blob:', ...remote],
        connectSrc: ["'self'", 'ws:', 'wss:', ...remote, ...external],
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
    crossOriginResourcePolicy: { policy: 'same-site' },
    hsts: config.env === 'production',
  });
}
