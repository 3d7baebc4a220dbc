/** The geo suites' app: the geo routes alone, on a bare Fastify instance (no database). */
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll } from 'vitest';
import geoRoutes from '../../src/modules/geo/routes.ts';

/** Made ready before the file's tests and closed after them. */
export function geoRoutesApp(): FastifyInstance {
  const app = Fastify();
  beforeAll(async () => {
    await app.register(geoRoutes);
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
  });
  return app;
}
