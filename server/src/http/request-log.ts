/**
 * One log line per request, when its response is sent: the request (method, redacted URL,
 * address: log-redaction.ts's serializer), the status and the time it took. Fastify's own
 * request logging writes two lines (one on arrival, one on completion): each line is serialised,
 * redacted and written, a visible share of the server's CPU on the map's cached answers.
 * A request that never completes still leaves its trace: errors are logged by the
 * error handler, and an aborted one here.
 */
import { type FastifyInstance, LogController } from 'fastify';

/** Fastify's option that stops its own two lines (app.ts); errors are the error handler's. */
export const requestLogController = () => new LogController({ disableRequestLogging: true });

export function installRequestLog(app: FastifyInstance): void {
  app.addHook('onResponse', (request, reply, done) => {
    request.log.info({ req: request, res: reply, responseTime: reply.elapsedTime }, 'request completed');
    done();
  });
  app.addHook('onRequestAbort', (request, done) => {
    request.log.info({ req: request }, 'request aborted');
    done();
  });
}
