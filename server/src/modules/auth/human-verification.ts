/**
 * Verifies a sign-up's human-check answer against its challenge, with the counters that make
 * the rules hold across requests and instances (kept in the rate-limit store):
 * - at most MAX_ATTEMPTS answers per challenge (its answer space is small);
 * - a correct answer under 1 s is refused once ("(1/2)") and accepted the second time;
 * - a solved challenge serves one sign-up only.
 */
import { badRequest } from '../../errors.ts';
import type { RateLimiter } from '../../adapters/rate-limit/limiter.ts';
import { CHALLENGE_TTL_MS, TOO_FAST_MS, isCorrectAnswer, type OpenedChallenge } from './human-check.ts';

/** Three wrong answers plus the two too-fast ones the rule itself needs. */
export const MAX_ATTEMPTS = 5;

export async function verifyHumanAnswer(
  limits: RateLimiter,
  challenge: OpenedChallenge | null,
  answer: string,
  nowMs: number,
): Promise<void> {
  const elapsed = challenge ? nowMs - challenge.issuedAtMs : -1;
  if (!challenge || elapsed < 0 || elapsed > CHALLENGE_TTL_MS) throw badRequest('human_check_required');
  if ((await limits.count('challenge_attempt', challenge.id, CHALLENGE_TTL_MS)) > MAX_ATTEMPTS)
    throw badRequest('human_check_required');
  if (!isCorrectAnswer(challenge.answers, answer)) throw badRequest('human_check_failed');
  if (elapsed < TOO_FAST_MS) {
    const n = await limits.count('challenge_fast', challenge.id, CHALLENGE_TTL_MS);
    if (n < 2) throw badRequest('human_check_too_fast', { n });
  }
  if ((await limits.count('challenge_used', challenge.id, CHALLENGE_TTL_MS)) > 1)
    throw badRequest('human_check_required');
}
