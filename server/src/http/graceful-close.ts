/**
 * Graceful close: `app.close()` stops accepting connections and waits for open ones. A
 * keep-alive connection that was busy when closing began would stay open forever once its
 * response is sent, so responses sent while closing ask the client to close the connection.
 */
import type { FastifyInstance } from 'fastify';

export function installGracefulClose(app: FastifyInstance): void {
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
    app.server.closeIdleConnections();
  });
  // A callback hook: it runs on every response (an async one costs a promise and a microtask).
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (closing) reply.header('connection', 'close');
    done(null, payload);
  });
}
