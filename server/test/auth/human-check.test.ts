/** The human check's questions and answers, and the bot score, without a server. */
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { scoreBot, type BotCheckInput } from '../../src/modules/auth/bot-check.ts';
import {
  generateChallenge,
  isCorrectAnswer,
  openChallenge,
  sealChallenge,
  type RandomInt,
} from '../../src/modules/auth/human-check.ts';
import { englishNumberWords, frenchNumberWords, numberAnswers } from '../../src/modules/auth/number-words.ts';

/** A reproducible generator (mulberry32) for distribution checks. */
function seeded(seed: number): RandomInt {
  let a = seed;
  return (min, max) => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    const r = ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    return min + Math.floor(r * (max - min + 1));
  };
}

describe('numbers in words', () => {
  it.each([
    [1, 'un'],
    [16, 'seize'],
    [17, 'dix-sept'],
    [21, 'vingt et un'],
    [22, 'vingt-deux'],
    [61, 'soixante et un'],
    [70, 'soixante-dix'],
    [71, 'soixante et onze'],
    [77, 'soixante-dix-sept'],
    [80, 'quatre-vingts'],
    [81, 'quatre-vingt-un'],
    [91, 'quatre-vingt-onze'],
    [99, 'quatre-vingt-dix-neuf'],
    [100, 'cent'],
  ])('%i in French is %s', (n, words) => {
    expect(frenchNumberWords(n)[0]).toBe(words);
  });
  it('knows the Belgian and Swiss tens', () => {
    expect(frenchNumberWords(72)).toContain('septante-deux');
    expect(frenchNumberWords(80)).toEqual(expect.arrayContaining(['huitante', 'octante', 'quatre-vingt']));
    expect(frenchNumberWords(91)).toContain('nonante et un');
  });
  it.each([
    [0, 'zero'],
    [13, 'thirteen'],
    [40, 'forty'],
    [81, 'eighty-one'],
  ])('%i in English is %s', (n, words) => {
    expect(englishNumberWords(n)).toEqual([words]);
  });
});

describe('answers', () => {
  it.each(['21', ' 21 ', 'vingt et un', 'Vingt-et-un', 'VINGT ET UN', 'twenty-one', 'Twenty one'])(
    'accepts %j for 21',
    (typed) => {
      expect(isCorrectAnswer(numberAnswers(21), typed)).toBe(true);
    },
  );
  it.each(['22', 'vingt', 'twenty', '', '   ', '2 1x'])('refuses %j for 21', (typed) => {
    expect(isCorrectAnswer(numberAnswers(21), typed)).toBe(false);
  });
  it('ignores accents and case in words', () => {
    expect(isCorrectAnswer(['zéro'], 'ZERO')).toBe(true);
    expect(isCorrectAnswer(numberAnswers(0), 'zéro')).toBe(true);
  });
});

describe('challenges', () => {
  it('asks a sum or a product 80 % of the time, otherwise a sequence or a simple question', () => {
    const random = seeded(42);
    const counts = { sum: 0, product: 0, sequence: 0, question: 0 };
    for (let i = 0; i < 10_000; i++) counts[generateChallenge(random).kind] += 1;
    expect((counts.sum + counts.product) / 10_000).toBeCloseTo(0.8, 1);
    expect(counts.sequence).toBeGreaterThan(700);
    expect(counts.question).toBeGreaterThan(700);
  });

  it('answers its own questions right', () => {
    const random = seeded(7);
    for (let i = 0; i < 2000; i++) {
      const c = generateChallenge(random);
      const sum = c.question.match(/^Combien font (\d+) \+ (\d+) \?$/);
      const product = c.question.match(/^Combien font (\d+) × (\d+) \?$/);
      const sequence = c.question.match(/^Quel nombre vient ensuite : (\d+), (\d+), (\d+), (\d+), … \?$/);
      if (sum) expect(c.answers[0]).toBe(String(Number(sum[1]) + Number(sum[2])));
      else if (product) expect(c.answers[0]).toBe(String(Number(product[1]) * Number(product[2])));
      else if (sequence) expect(c.answers[0]).toBe(String(2 * Number(sequence[4]) - Number(sequence[3])));
      else expect(c.kind).toBe('question');
      // Numbers are also accepted as French and English words.
      if (c.kind !== 'question') expect(c.answers.length).toBeGreaterThanOrEqual(3);
    }
  });

  it('seals answers and issue time so that only the server can read or change them', async () => {
    const key = randomBytes(32);
    const now = new Date('2025-06-01T12:00:00Z');
    const { id, token } = await sealChallenge(
      key,
      { kind: 'sum', question: 'Combien font 2 + 3 ?', answers: numberAnswers(5) },
      now,
    );
    expect(await openChallenge(key, token)).toEqual({ id, answers: ['5', 'cinq', 'five'], issuedAtMs: now.getTime() });
    expect(await openChallenge(randomBytes(32), token)).toBeNull();
    const parts = token.split('.');
    parts[3] = parts[3].slice(0, -2) + (parts[3].endsWith('AA') ? 'BB' : 'AA');
    expect(await openChallenge(key, parts.join('.'))).toBeNull();
    expect(await openChallenge(key, 'not-a-token')).toBeNull();
  });
});

describe('bot score', () => {
  const person: BotCheckInput = {
    honeypots: [undefined, ''],
    email: 'lea.martin@free.fr',
    firstName: 'Léa',
    lastName: 'Talbot',
    userAgent: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 Version/17.5 Safari/605.1.15',
    elapsedMs: 8000,
  };

  it('lets a person through', () => {
    expect(scoreBot(person)).toEqual({ score: 0, reasons: [], isBot: false });
    expect(
      scoreBot({ ...person, userAgent: 'Mozilla/5.0 (Linux; Android 9; CUBOT X19) Chrome/126.0 Mobile' }).isBot,
    ).toBe(false);
  });
  it('counts a filled honeypot as a bot on its own', () => {
    expect(scoreBot({ ...person, honeypots: ['x', undefined] })).toMatchObject({ score: 50, isBot: true });
  });
  it('counts scripted clients and crawlers as bots', () => {
    for (const ua of [
      'curl/8.5.0',
      'python-requests/2.32.3',
      'Go-http-client/1.1',
      'Mozilla/5.0 (compatible; Googlebot/2.1)',
    ]) {
      expect(scoreBot({ ...person, userAgent: ua }).isBot, ua).toBe(true);
    }
  });
  it('treats headless Chromium, a missing user-agent, one spam word or a fast answer as hints only', () => {
    const headless =
      'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/140.0.0.0 Safari/537.36';
    expect(scoreBot({ ...person, userAgent: headless })).toMatchObject({ score: 20, isBot: false });
    expect(scoreBot({ ...person, userAgent: undefined })).toMatchObject({ score: 25, isBot: false });
    expect(scoreBot({ ...person, firstName: 'Casino' })).toMatchObject({ score: 25, isBot: false });
    expect(scoreBot({ ...person, elapsedMs: 300 })).toMatchObject({ score: 25, isBot: false });
    // Headless and answering before the timing token is valid: still under 50.
    expect(scoreBot({ ...person, userAgent: headless, elapsedMs: 300 }).isBot).toBe(false);
  });
  it('adds hints up', () => {
    expect(scoreBot({ ...person, firstName: 'Casino', lastName: 'Viagra' })).toMatchObject({ score: 50, isBot: true });
    expect(scoreBot({ ...person, userAgent: '', elapsedMs: 100 })).toMatchObject({ score: 50, isBot: true });
  });
});
