/** Sign-in, the refresh of its session, sign-out, and what the session's user may read of it. */
import { MESSAGES, type SignInInput, type StaffRole } from '@moodmap/core';
import { ipKey } from '../../adapters/rate-limit/limiter.ts';
import { AppError, badRequest, unauthorized } from '../../errors.ts';
import { enforce } from '../../policies/actor.ts';
import { maySignIn } from '../../policies/standing.ts';
import type { FlowSupport, RequestMeta, SessionResponse } from './flow-support.ts';
import { verifyPassword } from './passwords.ts';
import type { Identity } from './sessions.ts';
import { findUserByEmail, findUserById, getRole, userDto, type UserDto, type UserRow } from './users.ts';

const sessionExpired = () => new AppError(401, 'session_expired', MESSAGES.session_expired);

export function signInFlows(s: FlowSupport) {
  const { db, ctx, sessions } = s;
  return {
    async signIn(input: SignInInput, meta: RequestMeta): Promise<SessionResponse> {
      await s.assertNotBanned(meta);
      // The login limit counts per client: a guesser blocks only their own IP.
      await ctx.limits.consume('login', ipKey(meta.ip), { ip: meta.ip });
      const user = await findUserByEmail(db, input.email);
      await s.accountLimits.assertSignInAllowed(input.email, user?.id ?? null, meta);
      // Same work (one argon2 verify) whether or not the account exists.
      const valid = await verifyPassword(user?.passwordHash ?? null, input.password);
      if (!user || !valid) {
        await s.accountLimits.signInFailed(input.email, meta);
        await ctx.logSecurityEvent({
          userId: user?.id ?? null,
          ip: meta.ip,
          eventType: 'login_failed',
          description: user ? 'Échec de connexion : mot de passe incorrect' : 'Échec de connexion : adresse inconnue',
          severity: 'low',
        });
        throw badRequest('invalid_credentials');
      }
      enforce(maySignIn(user));
      await s.accountLimits.signedIn(user.id, meta);
      const session = await sessions.start(user, 'password');
      await ctx.analytics.happened('login');
      return s.respond(session, user);
    },

    async refresh(refreshToken: string, meta: RequestMeta): Promise<SessionResponse> {
      let user: UserRow | undefined;
      const result = await sessions.rotate(
        refreshToken,
        async (id) => (user = await findUserById(db, id))?.email ?? null,
        meta.ip,
      );
      if (!result.ok || !user) throw sessionExpired();
      return s.respond(result.session, user);
    },

    async signOut(refreshToken: string, meta: RequestMeta): Promise<void> {
      const owner = await sessions.sessionOfRefreshToken(refreshToken, meta.ip);
      if (owner) await sessions.revoke(owner.sessionId);
    },

    async session(identity: Identity): Promise<{ user: UserDto }> {
      const user = await findUserById(db, identity.userId);
      if (!user) throw unauthorized();
      return { user: await userDto(db, user, ctx.config.adminEmail) };
    },

    async role(identity: Identity, meta: RequestMeta): Promise<{ role: StaffRole }> {
      const role = await getRole(db, identity.userId);
      await ctx.logSecurityEvent({
        userId: identity.userId,
        ip: meta.ip,
        eventType: 'role_check',
        description: `Rôle vérifié : ${role}`,
        severity: 'low',
      });
      return { role };
    },
  };
}
