/**
 * The reference: a bare Fastify app with one route answering {"hello":"world"}, in a process of
 * its own like the app, logging at the same default level (a line per request).
 */
import Fastify from 'fastify';

const app = Fastify({ logger: { level: 'info' } });
app.get('/', async () => ({ hello: 'world' }));
await app.listen({ host: '127.0.0.1', port: 0 });
process.on('message', async (message: string) => {
  if (message === 'close') {
    await app.close();
    process.send?.({ type: 'closed' });
    process.disconnect();
  }
});
process.on('disconnect', () => void app.close().finally(() => process.exit(0)));
process.send?.({ type: 'listening', port: (app.server.address() as { port: number }).port });
