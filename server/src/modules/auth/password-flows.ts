/** The forgotten password (a recovery e-mail, then the reset screen) and the password change. */
import { eq } from 'drizzle-orm';
import { MESSAGES, passwordSchema } from '@moodmap/core';
import { ipKey } from '../../adapters/rate-limit/limiter.ts';
import { users } from '../../db/schema.ts';
import { AppError, badRequest, unauthorized } from '../../errors.ts';
import { createEmailToken, voidEmailTokens } from './email-tokens.ts';
import type { FlowSupport, RequestMeta, SessionResponse } from './flow-support.ts';
import { recoveryMail } from './mails.ts';
import { hashPassword } from './passwords.ts';
import type { Identity } from './sessions.ts';
import { findUserByEmail, findUserById, usernameFor, type UserRow } from './users.ts';

const recoverySessionNotFound = () => new AppError(401, 'session_not_found', MESSAGES.reset_session_expired);

export function passwordFlows(s: FlowSupport) {
  const { db, ctx, sessions } = s;
  return {
    /**
     * Always the same answer, sent before looking the address up: whether an account exists
     * shows neither in the body nor in the timing. The e-mail goes out in the background.
     */
    async recover(email: string, meta: RequestMeta): Promise<{ status: 'sent' }> {
      await s.assertNotBanned(meta);
      // Per client only: a stranger's requests for someone else's address block only the stranger.
      await ctx.limits.consume('password_reset', ipKey(meta.ip), { ip: meta.ip, message: 'reset_rate_limited' });
      s.inBackground(() => mailRecovery(s, email, meta));
      return { status: 'sent' };
    },

    /**
     * The reset screen: both tokens of one live recovery session (a reset link's, never a
     * sign-in's), the refresh token still the session's current one; then the new password.
     * The tokens are used up in the transaction that changes the password, so concurrent
     * submissions change it exactly once.
     */
    async resetPassword(
      input: { accessToken: string; refreshToken: string; password: string },
      meta: RequestMeta,
    ): Promise<SessionResponse> {
      const identity = await sessions.identify(input.accessToken, { allowExpired: true });
      const owner = await sessions.sessionOfRefreshToken(input.refreshToken, meta.ip);
      if (
        !identity ||
        !owner?.live ||
        !owner.current ||
        owner.kind !== 'recovery' ||
        owner.sessionId !== identity.sessionId
      ) {
        throw recoverySessionNotFound();
      }
      const user = await findUserById(db, identity.userId);
      if (!user) throw recoverySessionNotFound();
      await checkNewPassword(s, input.password, meta, user.id);
      const passwordHash = await hashPassword(input.password);
      const changed = await db.transaction(async (tx) => {
        if (!(await sessions.consumeRecovery(tx, owner.sessionId, input.refreshToken))) return false;
        await tx.update(users).set({ passwordHash, updatedAt: ctx.now() }).where(eq(users.id, user.id));
        return true;
      });
      if (!changed) throw recoverySessionNotFound();
      return afterPasswordChange(s, user, meta);
    },

    async updatePassword(identity: Identity, password: string, meta: RequestMeta): Promise<SessionResponse> {
      const user = await findUserById(db, identity.userId);
      if (!user) throw unauthorized();
      await checkNewPassword(s, password, meta, user.id);
      const passwordHash = await hashPassword(password);
      await db.update(users).set({ passwordHash, updatedAt: ctx.now() }).where(eq(users.id, user.id));
      return afterPasswordChange(s, user, meta);
    },
  };
}

async function mailRecovery(s: FlowSupport, email: string, meta: RequestMeta): Promise<void> {
  const { ctx } = s;
  const user = await findUserByEmail(s.db, email);
  if (!user) return;
  // Past the address's hourly ceiling, only the owner's known devices still get a mail.
  if (!(await s.accountLimits.mayMailReset(user.id, email, meta))) {
    await ctx.logSecurityEvent({
      userId: user.id,
      ip: meta.ip,
      eventType: 'password_reset_withheld',
      description: 'Lien de réinitialisation non envoyé : plafond horaire de l’adresse atteint',
      severity: 'medium',
    });
    return;
  }
  const raw = await createEmailToken(s.db, user.id, 'recovery', ctx.now());
  const link = `${ctx.config.publicUrl}/api/auth/verify?type=recovery&token=${raw}`;
  await ctx.mailer.send(recoveryMail(user.email, usernameFor(user), link));
  await ctx.logSecurityEvent({
    userId: user.id,
    ip: meta.ip,
    eventType: 'password_reset_requested',
    description: 'Lien de réinitialisation envoyé',
    severity: 'low',
  });
}

/** A new password's rules; the reset screen maps these codes to the product's French texts. */
async function checkNewPassword(s: FlowSupport, password: string, meta: RequestMeta, userId: string) {
  const parsed = passwordSchema.safeParse(password);
  if (parsed.success) return;
  if (parsed.error.issues[0]?.message === MESSAGES.password_critical) {
    await s.violation(meta, 'malicious_input', 'Mot de passe refusé : motif dangereux détecté', userId);
    throw badRequest('password_critical');
  }
  throw new AppError(400, 'weak_password', MESSAGES.reset_weak_password);
}

async function afterPasswordChange(s: FlowSupport, user: UserRow, meta: RequestMeta): Promise<SessionResponse> {
  const now = s.ctx.now();
  // Every session ends, the caller's included: no token issued before the change works after it.
  await s.sessions.revokeAllOf(user.id);
  await voidEmailTokens(s.db, user.id, 'recovery', now);
  const issued = await s.sessions.start(user, 'password');
  await s.ctx.logSecurityEvent({
    userId: user.id,
    ip: meta.ip,
    eventType: 'password_change',
    description: 'Mot de passe modifié',
    severity: 'medium',
  });
  return s.respond(issued, user);
}
