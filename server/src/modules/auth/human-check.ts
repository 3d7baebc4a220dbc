/**
 * The human check of sign-up: a random question — 80 % a sum or a
 * product, otherwise a number sequence or a simple question — answered in French or English.
 *
 * The challenge travels as an encrypted, authenticated token (JWE, A256GCM): the client cannot
 * read the answers or change the issue time, and the server keeps no state until an answer
 * arrives. The issue time doubles as the bot check's timing token (valid 0.5 s – 1 h).
 * Per-challenge attempt counters live in the rate-limit store (human-verification.ts).
 */
import { randomInt as cryptoRandomInt, randomUUID } from 'node:crypto';
import { EncryptJWT, jwtDecrypt } from 'jose';
import { HOUR } from '@moodmap/core';
import { numberAnswers } from './number-words.ts';

/** Older challenges are refused: solve a fresh one. */
export const CHALLENGE_TTL_MS = HOUR;
/** A correct answer sooner than this is "too fast" (accepted on the second such attempt). */
export const TOO_FAST_MS = 1000;
/** The timing token is not valid before this; the bot check scores it. */
export const TIMING_MIN_MS = 500;

export interface Challenge {
  kind: 'sum' | 'product' | 'sequence' | 'question';
  question: string;
  answers: string[];
}

/** Lower case, no accents, letters and digits only: 'Vingt-et-Un ' and 'vingt et un' match. */
export function normaliseAnswer(answer: string): string {
  return answer
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '');
}

const SIMPLE_QUESTIONS: ReadonlyArray<{ question: string; answers: Array<string | number> }> = [
  { question: 'Combien de jours compte une semaine ?', answers: [7] },
  { question: 'Combien de mois compte une année ?', answers: [12] },
  { question: 'Combien de pattes a un chat ?', answers: [4] },
  { question: 'Combien de doigts compte une main ?', answers: [5] },
  { question: 'De quelle couleur est le ciel par beau temps ?', answers: ['bleu', 'blue'] },
  { question: 'De quelle couleur est la neige ?', answers: ['blanc', 'blanche', 'white'] },
  { question: 'Quelle est la capitale de la France ?', answers: ['Paris'] },
  { question: 'Quel jour vient après lundi ?', answers: ['mardi', 'tuesday'] },
];

/** Integer in [min, max]. */
export type RandomInt = (min: number, max: number) => number;
const secureRandomInt: RandomInt = (min, max) => cryptoRandomInt(min, max + 1);

export function generateChallenge(random: RandomInt = secureRandomInt): Challenge {
  const roll = random(0, 99);
  if (roll < 40) {
    const a = random(1, 20);
    const b = random(1, 20);
    return { kind: 'sum', question: `Combien font ${a} + ${b} ?`, answers: numberAnswers(a + b) };
  }
  if (roll < 80) {
    const a = random(2, 9);
    const b = random(2, 9);
    return { kind: 'product', question: `Combien font ${a} × ${b} ?`, answers: numberAnswers(a * b) };
  }
  if (roll < 90) {
    const start = random(1, 10);
    const step = random(2, 5);
    const terms = [0, 1, 2, 3].map((i) => start + i * step);
    return {
      kind: 'sequence',
      question: `Quel nombre vient ensuite : ${terms.join(', ')}, … ?`,
      answers: numberAnswers(start + 4 * step),
    };
  }
  const picked = SIMPLE_QUESTIONS[random(0, SIMPLE_QUESTIONS.length - 1)];
  const answers = picked.answers.flatMap((a) => (typeof a === 'number' ? numberAnswers(a) : [a]));
  return { kind: 'question', question: picked.question, answers };
}

export function isCorrectAnswer(answers: readonly string[], given: string): boolean {
  const typed = normaliseAnswer(given);
  return typed.length > 0 && answers.some((a) => normaliseAnswer(a) === typed);
}

export interface OpenedChallenge {
  id: string;
  answers: string[];
  issuedAtMs: number;
}

export async function sealChallenge(
  key: Uint8Array,
  challenge: Challenge,
  now: Date,
): Promise<{ id: string; token: string }> {
  const id = randomUUID();
  const token = await new EncryptJWT({ ans: challenge.answers.map(normaliseAnswer), ims: now.getTime() })
    .setProtectedHeader({ alg: 'dir', enc: 'A256GCM' })
    .setJti(id)
    .encrypt(key);
  return { id, token };
}

/** The challenge inside a token we issued, or null for anything else. */
export async function openChallenge(key: Uint8Array, token: string): Promise<OpenedChallenge | null> {
  try {
    const { payload } = await jwtDecrypt(token, key, {
      keyManagementAlgorithms: ['dir'],
      contentEncryptionAlgorithms: ['A256GCM'],
    });
    const { jti, ans, ims } = payload as { jti?: unknown; ans?: unknown; ims?: unknown };
    if (typeof jti !== 'string' || !Array.isArray(ans) || typeof ims !== 'number') return null;
    return { id: jti, answers: ans.filter((a): a is string => typeof a === 'string'), issuedAtMs: ims };
  } catch {
    return null;
  }
}
