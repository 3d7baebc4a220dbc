/**
 * The account flows: sign-up with confirmation, sign-in, refresh, sign-out,
 * password reset and change, role. Routes parse and answer; every rule lives here.
 */
import { acceptedTerms } from '../terms/service.ts';
import type { FastifyBaseLogger } from 'fastify';
import { eq, sql } from 'drizzle-orm';
import { MESSAGES, passwordSchema, type AuthSessionResponse, type SignInInput, type SignUpInput, type StaffRole } from '@moodmap/core';
import { ipKey } from '../../adapters/rate-limit/limiter.ts';
import type { AppContext } from '../../context.ts';
import { users } from '../../db/schema.ts';
import { AppError, badRequest, conflict, fail, unauthorized } from '../../errors.ts';
import { createAccountLimits } from './account-limits.ts';
import { scoreBot } from './bot-check.ts';
import { createEmailToken, purgeEmailTokens, redeemEmailToken, voidEmailTokens } from './email-tokens.ts';
import { generateChallenge, openChallenge, sealChallenge } from './human-check.ts';
import { verifyHumanAnswer } from './human-verification.ts';
import { confirmationMail, recoveryMail } from './mails.ts';
import { hashPassword, verifyPassword } from './passwords.ts';
import type { Identity, IssuedSession } from './sessions.ts';
import { findUserByEmail, findUserById, getRole, usernameFor, userDto, type UserDto, type UserRow } from './users.ts';

export interface RequestMeta {
  ip: string;
  userAgent?: string;
}

export type SessionResponse = AuthSessionResponse;

const sessionExpired = () => new AppError(401, 'session_expired', MESSAGES.session_expired);
const recoverySessionNotFound = () => new AppError(401, 'session_not_found', MESSAGES.reset_session_expired);

export function createAuthService(ctx: AppContext, log: FastifyBaseLogger) {
  const { db } = ctx.database;
  const { sessions, keys } = ctx.auth;
  const pending = new Set<Promise<void>>();
  const accountLimits = createAccountLimits(ctx.limits);

  /** Work the answer must not wait for (or reveal through its timing); awaited on close. */
  function inBackground(task: () => Promise<void>) {
    const run = task().catch((err) => log.error({ err }, 'auth background task failed'));
    pending.add(run);
    void run.finally(() => pending.delete(run));
  }

  async function respond(issued: IssuedSession, user: UserRow): Promise<SessionResponse> {
    return {
      accessToken: issued.accessToken,
      refreshToken: issued.refreshToken,
      expiresIn: issued.expiresIn,
      user: await userDto(db, user, ctx.config.adminEmail),
    };
  }

  /** An attack or a bot: logged, and counted towards the IP's security_violation block. */
  async function violation(meta: RequestMeta, eventType: string, description: string, userId?: string) {
    await ctx.logSecurityEvent({ userId, ip: meta.ip, eventType, description, severity: 'high' });
    await ctx.limits.consume('security_violation', ipKey(meta.ip), { ip: meta.ip }).catch(() => {});
  }

  /** An IP blocked for repeated violations may not try accounts at all for the block's length. */
  const assertNotBanned = (meta: RequestMeta) => ctx.limits.assertNotBlocked('security_violation', ipKey(meta.ip));

  /** A new password's rules; the reset screen maps these codes to the product's French texts. */
  async function checkNewPassword(password: string, meta: RequestMeta, userId: string) {
    const parsed = passwordSchema.safeParse(password);
    if (parsed.success) return;
    if (parsed.error.issues[0]?.message === MESSAGES.password_critical) {
      await violation(meta, 'malicious_input', 'Mot de passe refusé : motif dangereux détecté', userId);
      throw badRequest('password_critical');
    }
    throw new AppError(400, 'weak_password', MESSAGES.reset_weak_password);
  }

  async function changePassword(user: UserRow, password: string, meta: RequestMeta): Promise<SessionResponse> {
    const passwordHash = await hashPassword(password);
    await db.update(users).set({ passwordHash, updatedAt: ctx.now() }).where(eq(users.id, user.id));
    return afterPasswordChange(user, meta);
  }

  async function afterPasswordChange(user: UserRow, meta: RequestMeta): Promise<SessionResponse> {
    const now = ctx.now();
    // Every session ends, the caller's included: no token issued before the change works after it.
    await sessions.revokeAllOf(user.id);
    await voidEmailTokens(db, user.id, 'recovery', now);
    const issued = await sessions.start(user, 'password');
    await ctx.logSecurityEvent({ userId: user.id, ip: meta.ip, eventType: 'password_change', description: 'Mot de passe modifié', severity: 'medium' });
    return respond(issued, user);
  }

  return {
    /** Awaits background work (e-mails) — on shutdown, and in tests. */
    async flush(): Promise<void> {
      while (pending.size > 0) await Promise.allSettled([...pending]);
    },

    async challenge(): Promise<{ token: string; question: string }> {
      const challenge = generateChallenge();
      const { token } = await sealChallenge(keys.challenge, challenge, ctx.now());
      return { token, question: challenge.question };
    },

    async signUp(input: SignUpInput, meta: RequestMeta): Promise<{ status: 'confirmation_sent'; email: string }> {
      await assertNotBanned(meta);
      await ctx.limits.consume('register', ipKey(meta.ip), { ip: meta.ip });
      await ctx.limits.consume('register', `account:${input.email}`, { ip: meta.ip });
      // The terms in force must be the ones accepted; emergency mode limits sign-ups.
      const terms = acceptedTerms(input.termsVersion, ctx.now());
      if ((await ctx.costs.emergency()).active) await ctx.limits.consume('register_emergency', 'all', { ip: meta.ip });

      const challenge = await openChallenge(keys.challenge, input.challengeToken);
      const nowMs = ctx.now().getTime();
      const bot = scoreBot({
        honeypots: [input.website, input.fax],
        email: input.email,
        firstName: input.firstName,
        lastName: input.lastName,
        userAgent: meta.userAgent,
        elapsedMs: challenge ? nowMs - challenge.issuedAtMs : null,
      });
      if (bot.isBot) {
        await violation(meta, 'bot_detected', `Inscription refusée (score ${bot.score} : ${bot.reasons.join(', ')})`);
        throw badRequest('bot_detected');
      }
      // The challenge first: whether an address is taken is only told to whoever solved one.
      await verifyHumanAnswer(ctx.limits, challenge, input.challengeAnswer, nowMs);
      if (await findUserByEmail(db, input.email)) throw conflict('email_taken');

      const passwordHash = await hashPassword(input.password);
      const now = ctx.now();
      const [user] = await db.insert(users).values({
        email: input.email,
        passwordHash,
        metadata: { first_name: input.firstName, last_name: input.lastName },
        ...terms,
        createdAt: now,
        updatedAt: now,
      }).onConflictDoNothing().returning();
      if (!user) throw conflict('email_taken');
      // The profile exists from sign-up on.
      await userDto(db, user, ctx.config.adminEmail);

      const raw = await createEmailToken(db, user.id, 'confirm', now);
      const link = `${ctx.config.publicUrl}/api/auth/verify?type=signup&token=${raw}`;
      try {
        await ctx.mailer.send(confirmationMail(user.email, usernameFor(user), link));
      } catch (err) {
        // Without its e-mail the account could never be confirmed; undo it so a retry can succeed.
        log.error({ err }, 'confirmation e-mail failed');
        await db.delete(users).where(eq(users.id, user.id));
        throw fail(500, 'internal_error');
      }
      await ctx.analytics.happened('signup');
      return { status: 'confirmation_sent', email: user.email };
    },

    /**
     * Redeems an e-mail link; answers where the browser goes next (see routes.ts) and, for a
     * confirmation, the new session's refresh token, which the route puts in the cookie.
     */
    async verifyLink(type: string | undefined, token: string | undefined): Promise<{ location: string; refreshToken?: string }> {
      const recovery = type === 'recovery';
      const invalid = recovery ? '/reset-password#error=link_invalid&type=recovery' : '/?error=link_invalid';
      if ((type !== 'signup' && !recovery) || !token || token.length > 200) return { location: invalid };
      const now = ctx.now();
      const userId = await redeemEmailToken(db, token, recovery ? 'recovery' : 'confirm', now);
      const user = userId ? await findUserById(db, userId) : undefined;
      if (!user) return { location: invalid };
      // Both links prove the mailbox: a recovery link also confirms a never-confirmed address.
      await db.update(users).set({ emailConfirmedAt: sql`coalesce(${users.emailConfirmedAt}, ${now.toISOString()}::timestamptz)` }).where(eq(users.id, user.id));
      if (Math.random() < 0.01) purgeEmailTokens(db, now).catch(() => {});
      const issued = await sessions.start(user, recovery ? 'recovery' : 'signup');
      const e = encodeURIComponent;
      if (recovery) {
        // The reset screen sends both back with the new password; a fragment never reaches a server or a log.
        return { location: `/reset-password#access_token=${e(issued.accessToken)}&refresh_token=${e(issued.refreshToken)}&type=recovery&expires_in=${issued.expiresIn}` };
      }
      return { location: '/?type=signup', refreshToken: issued.refreshToken };
    },

    async signIn(input: SignInInput, meta: RequestMeta): Promise<SessionResponse> {
      await assertNotBanned(meta);
      // The login limit counts per client: a guesser blocks only their own IP.
      await ctx.limits.consume('login', ipKey(meta.ip), { ip: meta.ip });
      const user = await findUserByEmail(db, input.email);
      await accountLimits.assertSignInAllowed(input.email, user?.id ?? null, meta);
      // Same work (one argon2 verify) whether or not the account exists.
      const valid = await verifyPassword(user?.passwordHash ?? null, input.password);
      if (!user || !valid) {
        await accountLimits.signInFailed(input.email, meta);
        await ctx.logSecurityEvent({
          userId: user?.id ?? null,
          ip: meta.ip,
          eventType: 'login_failed',
          description: user ? 'Échec de connexion : mot de passe incorrect' : 'Échec de connexion : adresse inconnue',
          severity: 'low',
        });
        throw badRequest('invalid_credentials');
      }
      if (!user.emailConfirmedAt) throw fail(403, 'email_not_confirmed');
      // A moderator's ban closes the account; a suspension only stops writing.
      if (user.bannedAt) throw fail(403, 'account_banned');
      await accountLimits.signedIn(user.id, meta);
      const session = await sessions.start(user, 'password');
      await ctx.analytics.happened('login');
      return respond(session, user);
    },

    async refresh(refreshToken: string, meta: RequestMeta): Promise<SessionResponse> {
      let user: UserRow | undefined;
      const result = await sessions.rotate(refreshToken, async (id) => (user = await findUserById(db, id))?.email ?? null, meta.ip);
      if (!result.ok || !user) throw sessionExpired();
      return respond(result.session, user);
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

    /**
     * Always the same answer, sent before looking the address up: whether an account exists
     * shows neither in the body nor in the timing. The e-mail goes out in the background.
     */
    async recover(email: string, meta: RequestMeta): Promise<{ status: 'sent' }> {
      await assertNotBanned(meta);
      // Per client only: a stranger's requests for someone else's address block only the stranger.
      await ctx.limits.consume('password_reset', ipKey(meta.ip), { ip: meta.ip, message: 'reset_rate_limited' });
      inBackground(async () => {
        const user = await findUserByEmail(db, email);
        if (!user) return;
        // Past the address's hourly ceiling, only the owner's known devices still get a mail.
        if (!(await accountLimits.mayMailReset(user.id, email, meta))) {
          await ctx.logSecurityEvent({ userId: user.id, ip: meta.ip, eventType: 'password_reset_withheld', description: 'Lien de réinitialisation non envoyé : plafond horaire de l’adresse atteint', severity: 'medium' });
          return;
        }
        const raw = await createEmailToken(db, user.id, 'recovery', ctx.now());
        const link = `${ctx.config.publicUrl}/api/auth/verify?type=recovery&token=${raw}`;
        await ctx.mailer.send(recoveryMail(user.email, usernameFor(user), link));
        await ctx.logSecurityEvent({ userId: user.id, ip: meta.ip, eventType: 'password_reset_requested', description: 'Lien de réinitialisation envoyé', severity: 'low' });
      });
      return { status: 'sent' };
    },

    /**
     * The reset screen: both tokens of one live recovery session (a reset link's, never a
     * sign-in's), the refresh token still the session's current one; then the new password.
     * The tokens are used up in the transaction that changes the password, so concurrent
     * submissions change it exactly once.
     */
    async resetPassword(input: { accessToken: string; refreshToken: string; password: string }, meta: RequestMeta): Promise<SessionResponse> {
      const identity = await sessions.identify(input.accessToken, { allowExpired: true });
      const owner = await sessions.sessionOfRefreshToken(input.refreshToken, meta.ip);
      if (!identity || !owner?.live || !owner.current || owner.kind !== 'recovery' || owner.sessionId !== identity.sessionId) {
        throw recoverySessionNotFound();
      }
      const user = await findUserById(db, identity.userId);
      if (!user) throw recoverySessionNotFound();
      await checkNewPassword(input.password, meta, user.id);
      const passwordHash = await hashPassword(input.password);
      const changed = await db.transaction(async (tx) => {
        if (!(await sessions.consumeRecovery(tx, owner.sessionId, input.refreshToken))) return false;
        await tx.update(users).set({ passwordHash, updatedAt: ctx.now() }).where(eq(users.id, user.id));
        return true;
      });
      if (!changed) throw recoverySessionNotFound();
      return afterPasswordChange(user, meta);
    },

    async updatePassword(identity: Identity, password: string, meta: RequestMeta): Promise<SessionResponse> {
      const user = await findUserById(db, identity.userId);
      if (!user) throw unauthorized();
      await checkNewPassword(password, meta, user.id);
      return changePassword(user, password, meta);
    },

    async role(identity: Identity, meta: RequestMeta): Promise<{ role: StaffRole }> {
      const role = await getRole(db, identity.userId);
      await ctx.logSecurityEvent({ userId: identity.userId, ip: meta.ip, eventType: 'role_check', description: `Rôle vérifié : ${role}`, severity: 'low' });
      return { role };
    },

    violation,
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
