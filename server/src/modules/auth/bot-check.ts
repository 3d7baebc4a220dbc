/**
 * The bot check of sign-up: hidden trap fields, suspicious terms and
 * suspicious user-agents are scored; 50 or more is a bot. Each signal is weighed so that one
 * weak hint alone never reaches 50 — notably the browser journeys run in headless Chromium,
 * whose user-agent says "HeadlessChrome" — while a filled trap field or a scripted HTTP
 * client does.
 */
import { TIMING_MIN_MS } from './human-check.ts';

export const BOT_SCORE_THRESHOLD = 50;

export interface BotCheckInput {
  honeypots: unknown[];
  email: string;
  firstName: string;
  lastName: string;
  userAgent: string | undefined;
  /** Time between the challenge's issue and this submission, when known. */
  elapsedMs: number | null;
}

export interface BotCheckResult {
  score: number;
  reasons: string[];
  isBot: boolean;
}

const SUSPICIOUS_TERMS = [
  'viagra',
  'cialis',
  'casino',
  'poker',
  'porn',
  'xxx',
  'sex',
  'bitcoin',
  'crypto',
  'forex',
  'loan',
  'loans',
  'seo',
  'backlink',
  'backlinks',
  'spam',
  'bot',
  'robot',
  'test123',
  'admin123',
  'webmaster',
];

/**
 * Scripted HTTP clients and declared crawlers ("Googlebot/2.1"): no person signs up with these.
 * Crawlers need their version slash, so a phone named "CUBOT X19" is not one.
 */
const SCRIPTED_AGENTS =
  /\b(?:curl|wget|python-requests|python-urllib|python-httpx|aiohttp|httpie|go-http-client|java\/|okhttp|libwww-perl|scrapy|node-fetch|axios|undici|postmanruntime|insomnia)\b|(?:bot|crawler|spider|scraper)\/\d/i;
/** Automated browsers: a hint only (the browser journeys use one). */
const HEADLESS_AGENTS = /headlesschrome|phantomjs|selenium|puppeteer|playwright|electron/i;

const WEIGHTS = {
  honeypot: 50,
  scriptedAgent: 50,
  missingAgent: 25,
  headlessAgent: 20,
  term: 25,
  tooFast: 25,
} as const;

/** Words of a name or address, split on anything that is not a letter or digit. */
function words(value: string): string[] {
  return value
    .toLowerCase()
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

export function scoreBot(input: BotCheckInput): BotCheckResult {
  let score = 0;
  const reasons: string[] = [];
  const add = (points: number, reason: string) => {
    score += points;
    reasons.push(reason);
  };

  if (input.honeypots.some((v) => v !== undefined && v !== null && String(v).trim() !== ''))
    add(WEIGHTS.honeypot, 'honeypot');

  const agent = input.userAgent?.trim() ?? '';
  if (!agent) add(WEIGHTS.missingAgent, 'missing_user_agent');
  else if (SCRIPTED_AGENTS.test(agent)) add(WEIGHTS.scriptedAgent, 'scripted_user_agent');
  else if (HEADLESS_AGENTS.test(agent)) add(WEIGHTS.headlessAgent, 'headless_user_agent');

  const found = new Set<string>();
  for (const word of [...words(input.email), ...words(input.firstName), ...words(input.lastName)]) {
    if (SUSPICIOUS_TERMS.includes(word)) found.add(word);
  }
  for (const term of found) add(WEIGHTS.term, `term:${term}`);

  if (input.elapsedMs !== null && input.elapsedMs < TIMING_MIN_MS) add(WEIGHTS.tooFast, 'timing_token_too_early');

  return { score, reasons, isBot: score >= BOT_SCORE_THRESHOLD };
}
