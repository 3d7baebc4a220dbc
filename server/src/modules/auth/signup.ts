/**
 * Sign-up: the human check's challenge, then the account, created unconfirmed, and its
 * confirmation e-mail.
 */
import { eq } from 'drizzle-orm';
import type { SignUpInput } from '@moodmap/core';
import { ipKey } from '../../adapters/rate-limit/limiter.ts';
import { users } from '../../db/schema.ts';
import { badRequest, conflict, appError } from '../../errors.ts';
import { acceptedTerms } from '../terms/service.ts';
import { scoreBot } from './bot-check.ts';
import { createEmailToken } from './email-tokens.ts';
import type { FlowSupport, RequestMeta } from './flow-support.ts';
import { generateChallenge, openChallenge, sealChallenge } from './human-check.ts';
import { verifyHumanAnswer } from './human-verification.ts';
import { confirmationMail } from './mails.ts';
import { hashPassword } from './passwords.ts';
import { findUserByEmail, usernameFor, userDto, type UserRow } from './users.ts';

export function signUpFlows(s: FlowSupport) {
  const { ctx } = s;
  return {
    async challenge(): Promise<{ token: string; question: string }> {
      const challenge = generateChallenge();
      const { token } = await sealChallenge(s.keys.challenge, challenge, ctx.now());
      return { token, question: challenge.question };
    },

    async signUp(input: SignUpInput, meta: RequestMeta): Promise<{ status: 'confirmation_sent'; email: string }> {
      await s.assertNotBanned(meta);
      await ctx.limits.consume('register', ipKey(meta.ip), { ip: meta.ip });
      await ctx.limits.consume('register', `account:${input.email}`, { ip: meta.ip });
      // The terms in force must be the ones accepted; emergency mode limits sign-ups.
      const terms = acceptedTerms(input.termsVersion, ctx.now());
      if ((await ctx.costs.emergency()).active) await ctx.limits.consume('register_emergency', 'all', { ip: meta.ip });
      await checkHuman(s, input, meta);
      if (await findUserByEmail(s.db, input.email)) throw conflict('email_taken');

      const passwordHash = await hashPassword(input.password);
      const now = ctx.now();
      const user = await insertUser(s, input, { passwordHash, terms, now });
      await mailConfirmation(s, user, now);
      await ctx.analytics.happened('signup');
      return { status: 'confirmation_sent', email: user.email };
    },
  };
}

/** Bots are refused first; then the challenge, before telling whether an address is taken. */
async function checkHuman(s: FlowSupport, input: SignUpInput, meta: RequestMeta): Promise<void> {
  const challenge = await openChallenge(s.keys.challenge, input.challengeToken);
  const nowMs = s.ctx.now().getTime();
  const bot = scoreBot({
    honeypots: [input.website, input.fax],
    email: input.email,
    firstName: input.firstName,
    lastName: input.lastName,
    userAgent: meta.userAgent,
    elapsedMs: challenge ? nowMs - challenge.issuedAtMs : null,
  });
  if (bot.isBot) {
    await s.violation(meta, 'bot_detected', `Inscription refusée (score ${bot.score} : ${bot.reasons.join(', ')})`);
    throw badRequest('bot_detected');
  }
  // The challenge first: whether an address is taken is only told to whoever solved one.
  await verifyHumanAnswer(s.ctx.limits, challenge, input.challengeAnswer, nowMs);
}

interface NewAccount {
  passwordHash: string;
  terms: ReturnType<typeof acceptedTerms>;
  now: Date;
}

async function insertUser(
  s: FlowSupport,
  input: SignUpInput,
  { passwordHash, terms, now }: NewAccount,
): Promise<UserRow> {
  const [user] = await s.db
    .insert(users)
    .values({
      email: input.email,
      passwordHash,
      metadata: { first_name: input.firstName, last_name: input.lastName },
      ...terms,
      createdAt: now,
      updatedAt: now,
    })
    .onConflictDoNothing()
    .returning();
  if (!user) throw conflict('email_taken');
  // The profile exists from sign-up on.
  await userDto(s.db, user, s.ctx.config.adminEmail);
  return user;
}

async function mailConfirmation(s: FlowSupport, user: UserRow, now: Date): Promise<void> {
  const raw = await createEmailToken(s.db, user.id, 'confirm', now);
  const link = `${s.ctx.config.publicUrl}/api/auth/verify?type=signup&token=${raw}`;
  try {
    await s.ctx.mailer.send(confirmationMail(user.email, usernameFor(user), link));
  } catch (err) {
    // Without its e-mail the account could never be confirmed; undo it so a retry can succeed.
    s.log.error({ err }, 'confirmation e-mail failed');
    await s.db.delete(users).where(eq(users.id, user.id));
    throw appError(500, 'internal_error');
  }
}
