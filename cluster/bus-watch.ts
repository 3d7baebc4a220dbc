/**
 * When an instance listens on the bus again, seen from Redis itself: its subscribing connection
 * (named `moodmap_bus@…` by the server, `sub=1` once subscribed) in CLIENT LIST. An instance
 * cut off from the network hears nothing the others publish meanwhile, a sweep's `post.deleted`
 * included; once subscribed again it drops its cached answers, so what it shows is timed from
 * that moment.
 */
import { setTimeout as delay } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { type AppHost, HOSTS } from './topology.ts';

const EVERY_MS = 50;

export class BusWatch {
  private readonly redis = new Redis(`redis://${HOSTS.redis}:6379`, {
    lazyConnect: true,
    connectionName: 'cluster_observer',
  });

  async start(): Promise<void> {
    await this.redis.connect();
  }

  /** Ids of `host`'s subscribed bus connections. */
  async subscriptions(host: AppHost): Promise<string[]> {
    const list = await this.redis.client('LIST', 'TYPE', 'PUBSUB');
    const fields = String(list)
      .split('\n')
      .filter(Boolean)
      .map(
        (line) =>
          new Map(
            line.split(' ').map((pair) => {
              const at = pair.indexOf('=');
              return [pair.slice(0, at), pair.slice(at + 1)] as const;
            }),
          ),
      );
    return fields
      .filter(
        (f) =>
          f.get('addr')?.startsWith(`${HOSTS[host]}:`) &&
          f.get('name')?.startsWith('moodmap_bus@') &&
          Number(f.get('sub')) > 0,
      )
      .map((f) => f.get('id') ?? '');
  }

  /** The moment `host` has a subscription not among `before`; null if none by `deadline`. */
  async back(host: AppHost, before: string[], deadline: number): Promise<number | null> {
    while (Date.now() < deadline) {
      if ((await this.subscriptions(host)).some((id) => !before.includes(id))) return Date.now();
      await delay(EVERY_MS);
    }
    return null;
  }

  async stop(): Promise<void> {
    await this.redis.quit();
  }
}
