import net from 'node:net';

/**
 * A port the system says is free now, not a random one: a random port may be another service's
 * (an e2e run failed on 25672, RabbitMQ's).
 */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const found = address && typeof address === 'object' ? address.port : 0;
      probe.close(() => (found ? resolve(found) : reject(new Error('no free port'))));
    });
  });
}
