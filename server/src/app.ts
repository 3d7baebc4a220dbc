/**
 * Builds the Fastify application from a configuration. `main.ts` starts it; tests build it
 * in-process (with `app.inject` or on a free port) against a fresh database.
 */
import multipart from '@fastify/multipart';
import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { Config } from './config.ts';
import devMailRoutes from './adapters/mail/dev-routes.ts';
import { installDevOnlyGuard } from './http/dev-only.ts';
import { createContext, type AppContext } from './context.ts';
import { openDatabase, type Database } from './db/client.ts';
import { installBodyLimits } from './http/body-limits.ts';
import { clientErrorHandler, frameworkErrors } from './http/client-errors.ts';
import { installJsonCompression } from './http/compression.ts';
import { installConnectionCeiling, timeoutOptions } from './http/connection-limits.ts';
import { installErrorHandler } from './http/error-handler.ts';
import { installGracefulClose } from './http/graceful-close.ts';
import { loggerOptions } from './http/log-redaction.ts';
import { installNulGuard } from './http/nul-guard.ts';
import { installRequestLog, requestLogController } from './http/request-log.ts';
import { installSecurityHeaders } from './http/security-headers.ts';
import { installWebApp } from './http/web-app.ts';
import authRoutes from './modules/auth/routes.ts';
import commentsRoutes from './modules/comments/routes.ts';
import { installAuthGuard } from './modules/auth/guard.ts';
import type { GeoEngine } from './modules/geo/geo-engine.ts';
import geoRoutes from './modules/geo/routes.ts';
import pmtilesRoutes from './modules/geo/pmtiles-routes.ts';
import likesRoutes from './modules/likes/routes.ts';
import messagesRoutes from './modules/messages/routes.ts';
import paymentsRoutes from './modules/payments/routes.ts';
import tiersRoutes from './modules/tiers/routes.ts';
import { mediaRoutes } from './modules/media/index.ts';
import { relativizeLocalMediaUrls } from './modules/media/relative-urls.ts';
import postsRoutes from './modules/posts/routes.ts';
import { startPostSweepers } from './modules/posts/sweep-jobs.ts';
import { assemblePostsParts } from './posts-parts.ts';
import profilesRoutes from './modules/profiles/routes.ts';
import reportsRoutes from './modules/reports/routes.ts';
import searchRoutes from './modules/search/routes.ts';
import systemRoutes from './modules/system/routes.ts';
import { installRealtime } from './realtime/hub.ts';
import { blockRelations } from './modules/blocks/relations.ts';
import adminRoutes from './modules/admin/routes.ts';
import blocksRoutes from './modules/blocks/routes.ts';
import moderationRoutes from './modules/moderation/routes.ts';
import dsaNoticesRoutes from './modules/dsa-notices/routes.ts';
import analyticsRoutes from './modules/analytics/routes.ts';
import costsRoutes from './modules/costs/routes.ts';
import termsRoutes from './modules/terms/routes.ts';
import { installWritePolicy } from './modules/moderation/write-policy.ts';
import pushFeature from './modules/push/index.ts';
import accountDeletionRoutes from './modules/account/deletion-routes.ts';
import exportRoutes from './modules/account/export-routes.ts';

export interface BuildOptions {
  /** Reuse an open database (tests sharing one); otherwise one is opened from the config. */
  database?: Database;
  /** The clock of every time rule; tests pass a controllable one instead of sleeping. */
  now?: () => Date;
  /** The land check and place search; tests pass a small one (test/helpers/geo-fixture.ts). */
  geo?: GeoEngine;
}

export async function buildApp(config: Config, options: BuildOptions = {}): Promise<FastifyInstance> {
  const database =
    options.database ?? (await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir }));
  const app = Fastify({
    // Tokens in URLs and SQL parameters (e-mail addresses) never reach the logs.
    logger: config.logLevel === 'silent' ? false : loggerOptions(config.logLevel),
    // Only behind a configured proxy may X-Forwarded-For decide the client IP (rate limits).
    trustProxy: config.trustProxy,
    bodyLimit: config.bodyLimit,
    return503OnClosing: true,
    // `__proto__` / `constructor.prototype` keys in a JSON body: 400, never merged anywhere.
    onProtoPoisoning: 'error',
    onConstructorPoisoning: 'error',
    // Refusals made before any route runs answer in the API's shape too (client-errors.ts).
    frameworkErrors,
    clientErrorHandler,
    ...timeoutOptions(config),
    // One line per request instead of Fastify's two (request-log.ts).
    logController: requestLogController(),
  });
  installConnectionCeiling(app.server, config.maxConnectionsPerIp);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  const ctx = await createContext(config, database, app.log, options.now, options.geo);
  app.decorate('ctx', ctx);
  // Local media URLs are root-relative; rows from before held PUBLIC_URL's host, which breaks
  // the app opened at any other address. Migrations have run (openDatabase), so fix them now.
  if (ctx.storage.kind === 'local') {
    const rewritten = await relativizeLocalMediaUrls(database.db);
    if (Object.keys(rewritten).length > 0) app.log.info({ rewritten }, 'URLs de médias locales rendues relatives');
  }

  installErrorHandler(app);
  installBodyLimits(app);
  installNulGuard(app);
  installGracefulClose(app);
  installRequestLog(app);
  await installJsonCompression(app);
  await installSecurityHeaders(app, config);
  installAuthGuard(app, ctx.auth.identify);
  // Before any route: each write route's policy (suspension, ban, terms) is added as it registers.
  installWritePolicy(app, database.db, ctx.now);
  // Before any route too: the routes under /dev/ answer only to this machine, never in production.
  installDevOnlyGuard(app, config.env);
  await app.register(systemRoutes, { ctx });
  await app.register(geoRoutes, { geo: ctx.geo });
  await app.register(pmtilesRoutes, { config });
  await app.register(authRoutes, { ctx });
  await installRealtime(app, ctx.bus, ctx.auth.identify, blockRelations(ctx.database.db, ctx.bus));
  await app.register(multipart);
  await app.register(mediaRoutes, { storage: ctx.storage });
  // Posts first: their parts are assembled here (posts-parts.ts), their sweepers run on the leader's timers.
  await app.register(postsRoutes, { ctx, parts: assemblePostsParts(ctx) });
  const stopSweepers = startPostSweepers(ctx);
  app.addHook('onClose', stopSweepers);
  // The other feature modules: each a plugin given the context, registered in this order.
  const features = [
    likesRoutes,
    commentsRoutes,
    reportsRoutes,
    searchRoutes,
    profilesRoutes,
    messagesRoutes,
    paymentsRoutes,
    tiersRoutes,
    blocksRoutes,
    adminRoutes,
    moderationRoutes,
    dsaNoticesRoutes,
    termsRoutes,
    analyticsRoutes,
    costsRoutes,
    pushFeature,
    accountDeletionRoutes,
    exportRoutes,
  ];
  for (const routes of features) await app.register(routes, { ctx });
  // The dev outbox's pages, so a newcomer can open confirmation links without SMTP.
  if (config.env !== 'production' && ctx.mailer.outbox)
    await app.register(devMailRoutes, { outbox: ctx.mailer.outbox });
  await installWebApp(app, config.webDist);

  app.addHook('onClose', async () => {
    await ctx.close();
    if (!options.database) await database.close();
  });
  return app;
}

declare module 'fastify' {
  interface FastifyInstance {
    ctx: AppContext;
  }
}
