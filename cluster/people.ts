/**
 * The workload's people: each signs up as the web app does (human-check question answered after
 * the server's human delay, the terms' version), opens the confirmation link from the mail the
 * instance sent through SMTP to the mail host, then signs in. Everything through the balancer,
 * from the person's own address.
 */
import http from 'node:http';
import { setTimeout as delay } from 'node:timers/promises';
import { z } from 'zod';
import { authSessionBodySchema, challengeResponseSchema, termsStatusResponseSchema } from '@moodmap/core';
import { HUMAN_DELAY_MS, solveChallenge } from '../e2e/support/challenge.ts';
import { type Answer, Browser, cookieOf, read } from './client.ts';
import { HOSTS } from './topology.ts';

export const PASSWORD = 'Carte2024Humeur';
const REFRESH_COOKIE = 'moodmap_refresh';
const FIRST_NAMES = ['Camille', 'Léa', 'Hugo', 'Chloé', 'Louis', 'Manon', 'Jules', 'Inès', 'Arthur', 'Zoé'];
const LAST_NAMES = ['Martin', 'Bernard', 'Dubois', 'Thomas', 'Robert', 'Richard', 'Petit', 'Durand', 'Leroy', 'Moreau'];

export interface Person {
  index: number;
  email: string;
  browser: Browser;
  id: string;
  token: string;
  /** The refresh cookie of the latest sign-in. */
  refresh: string;
}

/** Every answer that was not the expected one, by route and status, for the report. */
export class Failures {
  readonly counts = new Map<string, number>();
  readonly unauthorized = { count: 0 };
  note(what: string, answer: Answer): void {
    this.count(`${what} → ${answer.status || 'pas de réponse'}`);
    if (answer.status === 401) this.unauthorized.count++;
  }
  count(what: string): void {
    this.counts.set(what, (this.counts.get(what) ?? 0) + 1);
  }
  summary(): string {
    return [...this.counts].map(([key, n]) => `${key} ×${n}`).join(', ') || 'aucune';
  }
}

const linksSchema = z.array(z.string());

/** The links of the mails the mail host received for `email`, asked over plain HTTP from the client host. */
function mailLinks(email: string): Promise<string[]> {
  return new Promise((resolve) => {
    http
      .get(`http://${HOSTS.mail}:8025/links?to=${encodeURIComponent(email)}`, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const parsed = linksSchema.safeParse(JSON.parse(Buffer.concat(chunks).toString('utf8')));
          resolve(parsed.success ? parsed.data : []);
        });
      })
      .on('error', () => resolve([]));
  });
}

async function confirmationLink(email: string): Promise<string | null> {
  for (let i = 0; i < 100; i++) {
    const link = (await mailLinks(email)).find((l) => l.includes('/api/auth/verify?type=signup'));
    if (link) return link;
    await delay(200);
  }
  return null;
}

export async function signIn(
  browser: Browser,
  email: string,
  failures: Failures,
): Promise<{ id: string; token: string; refresh: string } | null> {
  const answer = await browser.request('POST', '/api/auth/login', { json: { email, password: PASSWORD } });
  const session = read(authSessionBodySchema, answer);
  const refresh = cookieOf(answer, REFRESH_COOKIE);
  if (answer.status !== 200 || !session || !refresh) {
    failures.note('connexion', answer);
    return null;
  }
  return { id: session.user.id, token: session.accessToken, refresh };
}

export async function signUp(
  index: number,
  address: string,
  runId: string,
  failures: Failures,
): Promise<Person | null> {
  const browser = new Browser(address);
  const firstName = FIRST_NAMES[index % FIRST_NAMES.length];
  const lastName = LAST_NAMES[Math.floor(index / FIRST_NAMES.length) % LAST_NAMES.length];
  const email = `${firstName.toLowerCase().normalize('NFD').replace(/\p{M}/gu, '')}.${lastName.toLowerCase()}.${runId}.${index}@moodmap.test`;
  const challengeAnswer = await browser.request('GET', '/api/auth/challenge');
  const shownAt = Date.now();
  const challenge = read(challengeResponseSchema, challengeAnswer);
  const terms = read(termsStatusResponseSchema, await browser.request('GET', '/api/terms'));
  if (!challenge || !terms) {
    failures.note('question de vérification', challengeAnswer);
    return null;
  }
  // A person reads the question before answering: the server refuses an answer under 1 s.
  await delay(Math.max(0, HUMAN_DELAY_MS - (Date.now() - shownAt)));
  const signup = await browser.request('POST', '/api/auth/signup', {
    json: {
      email,
      password: PASSWORD,
      firstName,
      lastName,
      challengeToken: challenge.token,
      challengeAnswer: solveChallenge(challenge.question),
      website: '',
      fax: '',
      termsVersion: terms.current.version,
    },
  });
  if (signup.status !== 201) {
    failures.note('inscription', signup);
    return null;
  }
  const link = await confirmationLink(email);
  if (!link) {
    failures.note('e-mail de confirmation (absent)', signup);
    return null;
  }
  const url = new URL(link);
  const confirmed = await browser.request('GET', `${url.pathname}${url.search}`);
  if (confirmed.status !== 302) {
    failures.note('lien de confirmation', confirmed);
    return null;
  }
  const session = await signIn(browser, email, failures);
  return session ? { index, email, browser, ...session } : null;
}
