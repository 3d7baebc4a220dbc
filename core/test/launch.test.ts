/** Launch texts: plurals, French action names in rate-limit sentences, role names, terms versions. */
import { describe, expect, it } from 'vitest';
import { rateLimitActionLabel, roleLabel, t, termsAt, tn, TERMS_NOTICE_DAYS, TERMS_VERSIONS } from '../src/index.ts';

describe('launch texts', () => {
  it('says 1 publication and 2 publications', () => {
    expect(tn('cluster_count', 1)).toBe('1 publication');
    expect(tn('cluster_count', 2)).toBe('2 publications');
    expect(tn('pulse_purchase_success', 1)).toBe('Paiement confirmé : 1 crédit Pulse ajouté');
    expect(tn('pulse_purchase_success', 5)).toBe('Paiement confirmé : 5 crédits Pulse ajoutés');
    expect(tn('unread_badge_label', 1)).toBe('1 conversation non lue');
    // A text without a singular form is the same for every count.
    expect(tn('pulse_credits', 1)).toBe('Crédits : 1');
  });

  it('names rate-limited actions in French', () => {
    expect(t('rate_too_many', { action: rateLimitActionLabel('login'), minutes: 5 })).toBe(
      'Trop de tentatives pour connexion. Bloqué pour 5 minutes.',
    );
    expect(rateLimitActionLabel('register')).toBe('inscription');
    expect(rateLimitActionLabel('post_create')).toBe('publication');
    expect(rateLimitActionLabel('constructor')).toBe('constructor');
  });

  it('names roles in French', () => {
    expect(roleLabel('super_admin')).toBe('Super administrateur');
    expect(roleLabel('moderator')).toBe('Modérateur');
    expect(roleLabel('user')).toBe('Membre');
    expect(roleLabel('__proto__')).toBe('__proto__');
  });

  it('has a version of the terms in force today, and announces a later one within its notice', () => {
    const now = new Date();
    const { current, upcoming } = termsAt(now);
    expect(TERMS_VERSIONS).toContainEqual(current);
    expect(Date.parse(current.effectiveAt)).toBeLessThanOrEqual(now.getTime());
    if (upcoming)
      expect(Date.parse(upcoming.effectiveAt) - now.getTime()).toBeLessThanOrEqual(TERMS_NOTICE_DAYS * 86_400_000);
  });

  it('lists its versions oldest first', () => {
    const dates = TERMS_VERSIONS.map((v) => Date.parse(v.effectiveAt));
    expect(dates).toEqual([...dates].sort((a, b) => a - b));
  });
});
