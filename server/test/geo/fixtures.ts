/** The geo suites' app: the geo routes alone on the prebuilt geo data, on a bare Fastify instance (no database). */
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll } from 'vitest';
import geoRoutes from '../../src/modules/geo/routes.ts';
import { realGeo } from '../helpers/geo-fixture.ts';

/** Made ready before the file's tests and closed after them. */
export function geoRoutesApp(): FastifyInstance {
  const app = Fastify();
  beforeAll(async () => {
    await app.register(geoRoutes, { geo: realGeo() });
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
  });
  return app;
}
