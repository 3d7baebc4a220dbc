/**
 * What the account flows share: the context's parts, work left to run in the background, the
 * session answer, and the security violation that counts towards an IP's block.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { AuthSessionResponse } from '@moodmap/core';
import { ipKey } from '../../adapters/rate-limit/limiter.ts';
import type { AppContext } from '../../context.ts';
import { createAccountLimits } from './account-limits.ts';
import type { IssuedSession } from './sessions.ts';
import { userDto, type UserRow } from './users.ts';

export interface RequestMeta {
  ip: string;
  userAgent?: string;
}

export type SessionResponse = AuthSessionResponse;

export function createFlowSupport(ctx: AppContext, log: FastifyBaseLogger) {
  const { db } = ctx.database;
  const pending = new Set<Promise<void>>();

  /** Work the answer must not wait for (or reveal through its timing); awaited on close. */
  function inBackground(task: () => Promise<void>) {
    const run = task().catch((err) => log.error({ err }, 'auth background task failed'));
    pending.add(run);
    void run.finally(() => pending.delete(run));
  }

  /** An attack or a bot: logged, and counted towards the IP's security_violation block. */
  async function violation(meta: RequestMeta, eventType: string, description: string, userId?: string) {
    await ctx.logSecurityEvent({ userId, ip: meta.ip, eventType, description, severity: 'high' });
    await ctx.limits.consume('security_violation', ipKey(meta.ip), { ip: meta.ip }).catch(() => {});
  }

  return {
    ctx,
    log,
    db,
    sessions: ctx.auth.sessions,
    keys: ctx.auth.keys,
    accountLimits: createAccountLimits(ctx.limits),
    inBackground,
    violation,
    /** Awaits background work (e-mails) — on shutdown, and in tests. */
    async flush(): Promise<void> {
      while (pending.size > 0) await Promise.allSettled([...pending]);
    },
    async respond(issued: IssuedSession, user: UserRow): Promise<SessionResponse> {
      return {
        accessToken: issued.accessToken,
        refreshToken: issued.refreshToken,
        expiresIn: issued.expiresIn,
        user: await userDto(db, user, ctx.config.adminEmail),
      };
    },
    /** An IP blocked for repeated violations may not try accounts at all for the block's length. */
    assertNotBanned: (meta: RequestMeta) => ctx.limits.assertNotBlocked('security_violation', ipKey(meta.ip)),
  };
}

export type FlowSupport = ReturnType<typeof createFlowSupport>;
