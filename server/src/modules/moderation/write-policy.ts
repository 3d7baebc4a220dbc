/**
 * Installs the write policy (policies/standing.ts: which writes a suspended, banned or
 * terms-pending account may still make) on every route declaring `config.write`, and reads the
 * writer's standing it judges.
 */
import { eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest, onRequestHookHandler } from 'fastify';
import type { Db } from '../../db/client.ts';
import { users } from '../../db/schema.ts';
import { enforce } from '../../policies/actor.ts';
import { WRITE_RULES, writeRefusal, type WriteKind, type WriterAccount } from '../../policies/standing.ts';
import { requireUser } from '../auth/guard.ts';

/** The writer's suspension, ban and accepted terms, as writeRefusal reads them. */
export async function readWriter(db: Db, userId: string): Promise<WriterAccount | undefined> {
  const [row] = await db
    .select({ suspendedUntil: users.suspendedUntil, bannedAt: users.bannedAt, termsVersion: users.termsVersion })
    .from(users)
    .where(eq(users.id, userId))
    .limit(1);
  return row;
}

/**
 * Adds the check to every route declaring `config.write`, after its own onRequest hooks (the
 * sign-in), so a refused write is answered before its body is validated or its rate counted.
 * Must run before the routes are registered (an onRoute hook only sees routes added after it).
 */
export function installWritePolicy(app: FastifyInstance, db: Db, now: () => Date): void {
  app.addHook('onRoute', (route) => {
    const kind = route.config?.write;
    if (!kind || WRITE_RULES[kind].inStatement) return;
    const check: onRequestHookHandler = async (request: FastifyRequest) => {
      const { userId } = requireUser(request);
      const account = await readWriter(db, userId);
      if (account) enforce(writeRefusal(kind, account, now()));
    };
    const own =
      route.onRequest === undefined ? [] : Array.isArray(route.onRequest) ? route.onRequest : [route.onRequest];
    route.onRequest = [...own, check];
  });
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The kind of write the route makes (policies/standing.ts); none for reads. */
    write?: WriteKind;
  }
}
