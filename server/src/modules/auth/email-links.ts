/** The links of the confirmation and recovery e-mails, redeemed into a session. */
import { eq, sql } from 'drizzle-orm';
import { users } from '../../db/schema.ts';
import { purgeEmailTokens, redeemEmailToken } from './email-tokens.ts';
import type { FlowSupport } from './flow-support.ts';
import { findUserById } from './users.ts';

export function emailLinkFlows(s: FlowSupport) {
  const { db, ctx } = s;
  return {
    /**
     * Redeems an e-mail link; answers where the browser goes next (see routes.ts) and, for a
     * confirmation, the new session's refresh token, which the route puts in the cookie.
     */
    async verifyLink(
      type: string | undefined,
      token: string | undefined,
    ): Promise<{ location: string; refreshToken?: string }> {
      const recovery = type === 'recovery';
      const invalid = recovery ? '/reset-password#error=link_invalid&type=recovery' : '/?error=link_invalid';
      if ((type !== 'signup' && !recovery) || !token || token.length > 200) return { location: invalid };
      const now = ctx.now();
      const userId = await redeemEmailToken(db, token, recovery ? 'recovery' : 'confirm', now);
      const user = userId ? await findUserById(db, userId) : undefined;
      if (!user) return { location: invalid };
      // Both links prove the mailbox: a recovery link also confirms a never-confirmed address.
      await db
        .update(users)
        .set({ emailConfirmedAt: sql`coalesce(${users.emailConfirmedAt}, ${now.toISOString()}::timestamptz)` })
        .where(eq(users.id, user.id));
      if (Math.random() < 0.01) purgeEmailTokens(db, now).catch(() => {});
      const issued = await s.sessions.start(user, recovery ? 'recovery' : 'signup');
      const e = encodeURIComponent;
      if (recovery) {
        // The reset screen sends both back with the new password; a fragment never reaches a server or a log.
        return {
          location: `/reset-password#access_token=${e(issued.accessToken)}&refresh_token=${e(issued.refreshToken)}&type=recovery&expires_in=${issued.expiresIn}`,
        };
      }
      return { location: '/?type=signup', refreshToken: issued.refreshToken };
    },
  };
}
