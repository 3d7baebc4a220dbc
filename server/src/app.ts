/**
 * Builds the Fastify application from a configuration. `main.ts` starts it; tests build it
 * in-process (with `app.inject` or on a free port) against a fresh database.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { Config } from './config.ts';
import type { AppContext } from './context.ts';
import { openDatabase, type Database } from './db/client.ts';
import { installErrorHandler } from './http/error-handler.ts';
import { installSecurityHeaders } from './http/security-headers.ts';
import { installWebApp } from './http/web-app.ts';
import geoRoutes from './modules/geo/routes.ts';
import systemRoutes from './modules/system/routes.ts';

export interface BuildOptions {
  /** Reuse an open database (tests sharing one); otherwise one is opened from the config. */
  database?: Database;
}

export async function buildApp(config: Config, options: BuildOptions = {}): Promise<FastifyInstance> {
  const database = options.database ?? (await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir }));
  const ctx: AppContext = { config, database };

  const app = Fastify({
    logger: config.logLevel === 'silent' ? false : {
      level: config.logLevel,
      redact: ['req.headers.authorization', 'req.headers.cookie'],
    },
    // Only behind a configured proxy may X-Forwarded-For decide the client IP (rate limits).
    trustProxy: config.trustProxy,
    bodyLimit: 1024 * 1024,
    return503OnClosing: true,
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.decorate('ctx', ctx);

  installErrorHandler(app);
  await installSecurityHeaders(app, config);
  await app.register(systemRoutes, { ctx });
  await app.register(geoRoutes);
  await installWebApp(app, config.webDist);

  if (!options.database) app.addHook('onClose', async () => database.close());
  return app;
}

declare module 'fastify' {
  interface FastifyInstance {
    ctx: AppContext;
  }
}
