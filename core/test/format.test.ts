import { formatDistanceStrict } from 'date-fns';
import { fr } from 'date-fns/locale';
import { describe, expect, it } from 'vitest';
import {
  badgeCount,
  bubbleTime,
  conversationListTime,
  expiresIn,
  playerTime,
  securityEventLabel,
  shortId,
  truncate,
  relativeTime,
  POST_LIFETIME_MS,
  euros,
  PULSE_PRICE_LABEL,
} from '../src/index.ts';

const now = new Date(2026, 10, 22, 15, 30); // local time, like the browser

describe('badgeCount', () => {
  it('shows the number up to 9, then 9+ and 99+', () => {
    expect(badgeCount(0)).toBe('0');
    expect(badgeCount(9)).toBe('9');
    expect(badgeCount(10)).toBe('9+');
    expect(badgeCount(99)).toBe('9+');
    expect(badgeCount(100)).toBe('99+');
  });
});

describe('truncate', () => {
  it('keeps short text and cuts long text with an ellipsis', () => {
    expect(truncate('bonjour', 40)).toBe('bonjour');
    expect(truncate('a'.repeat(61), 60)).toBe('a'.repeat(60) + '...');
  });
  it('does not split an emoji', () => {
    expect(truncate('😊😊😊', 2)).toBe('😊😊...');
  });
});

describe('conversationListTime', () => {
  it('follows HH:mm / Hier / Nj / dd/MM / MM/yy', () => {
    expect(conversationListTime(new Date(2026, 10, 22, 9, 5), now)).toBe('09:05');
    expect(conversationListTime(new Date(2026, 10, 21, 23, 0), now)).toBe('Hier');
    expect(conversationListTime(new Date(2026, 10, 19, 12, 0), now)).toBe('3j');
    expect(conversationListTime(new Date(2026, 10, 5, 12, 0), now)).toBe('05/11');
    expect(conversationListTime(new Date(2026, 8, 1, 12, 0), now)).toBe('09/26');
  });
});

describe('bubbleTime', () => {
  it('follows HH:mm / Hier HH:mm / Il y a Nj HH:mm / dd/MM HH:mm', () => {
    expect(bubbleTime(new Date(2026, 10, 22, 8, 0), now)).toBe('08:00');
    expect(bubbleTime(new Date(2026, 10, 21, 8, 0), now)).toBe('Hier 08:00');
    expect(bubbleTime(new Date(2026, 10, 18, 8, 0), now)).toBe('Il y a 4j 08:00');
    expect(bubbleTime(new Date(2026, 10, 1, 8, 0), now)).toBe('01/11 08:00');
  });
});

describe('expiresIn', () => {
  it('counts whole hours left, then "quelques minutes"', () => {
    const created = new Date(now.getTime() - 2 * 3_600_000);
    expect(expiresIn(created, POST_LIFETIME_MS, now)).toBe('Expire dans 22h');
    const old = new Date(now.getTime() - POST_LIFETIME_MS + 10 * 60_000);
    expect(expiresIn(old, POST_LIFETIME_MS, now)).toBe('quelques minutes');
  });
});

describe('playerTime', () => {
  it('formats m:ss and shows 0:00 for invalid values', () => {
    expect(playerTime(0)).toBe('0:00');
    expect(playerTime(65.7)).toBe('1:05');
    expect(playerTime(Number.NaN)).toBe('0:00');
    expect(playerTime(-3)).toBe('0:00');
  });
});

describe('admin formatters', () => {
  it('shortens ids and labels events', () => {
    expect(shortId('0123456789abcdef')).toBe('01234567...');
    expect(securityEventLabel('login_failed_attempt')).toBe('LOGIN FAILED_ATTEMPT');
  });
});

describe('relativeTime', () => {
  it('is French', () => {
    expect(relativeTime(new Date(now.getTime() - 5 * 60_000), now)).toBe('il y a 5 minutes');
    expect(relativeTime(now, now)).toBe("À l'instant");
    expect(relativeTime(new Date(now.getTime() - 90 * 60_000), now)).toBe('il y a 2 heures');
    expect(relativeTime(new Date(now.getTime() - 400 * 86_400_000), now)).toBe('il y a 1 an');
  });

  it("says what date-fns' formatDistanceStrict says for the same two dates", () => {
    const at = new Date(2026, 10, 24, 13, 0);
    for (let s = 60; s < 3 * 365 * 86_400; s = Math.ceil(s * 1.01) + 1) {
      const then = new Date(at.getTime() - s * 1000);
      expect(relativeTime(then, at)).toBe(formatDistanceStrict(then, at, { locale: fr, addSuffix: true }));
    }
  });
});

describe('euros (Pulse prices)', () => {
  it('formats cents the French way, like the 2,50 € label', () => {
    expect(euros(250)).toBe(PULSE_PRICE_LABEL);
    expect(euros(1250)).toBe('12,50 €');
    expect(euros(2500)).toBe('25,00 €');
    expect(euros(5)).toBe('0,05 €');
    expect(euros(123456)).toBe('1\u202f234,56 €');
  });
});
