/** The shared profile rules (core), as the web form and the server both apply them. */
import { describe, expect, it } from 'vitest';
import {
  bioSchema,
  nextNicknameChangeAt,
  nicknameCooldownCutoff,
  nicknameSchema,
  updateProfileSchema,
} from '@moodmap/core';

const message = (result: { success: boolean; error?: { issues: Array<{ message: string }> } }) =>
  result.success ? null : result.error!.issues[0].message;

describe('nickname schema', () => {
  it('accepts letters of any script with accents, digits, space, hyphen and underscore, trimmed', () => {
    expect(nicknameSchema.parse('  Zoé Ñandú  ')).toBe('Zoé Ñandú');
    expect(nicknameSchema.parse('Jean-Marc_974')).toBe('Jean-Marc_974');
    expect(nicknameSchema.parse('Ελένη')).toBe('Ελένη');
    expect(nicknameSchema.parse('Lé')).toBe('Lé');
    // A decomposed é (e + combining accent) is stored precomposed.
    expect(nicknameSchema.parse('Le\u0301a')).toBe('Léa');
    expect(nicknameSchema.parse('a'.repeat(50))).toHaveLength(50);
  });

  it('refuses each broken rule with its own text', () => {
    const cases: Array<[unknown, string]> = [
      ['a', 'Le pseudo doit contenir entre 2 et 50 caractères'],
      ['   a   ', 'Le pseudo doit contenir entre 2 et 50 caractères'],
      ['', 'Le pseudo doit contenir entre 2 et 50 caractères'],
      ['a'.repeat(51), 'Le pseudo doit contenir entre 2 et 50 caractères'],
      [
        'Léa <3',
        'Le pseudo ne peut contenir que des lettres, des chiffres, des espaces, des tirets (-) et des tirets bas (_)',
      ],
      [
        'léa@home',
        'Le pseudo ne peut contenir que des lettres, des chiffres, des espaces, des tirets (-) et des tirets bas (_)',
      ],
      [
        'Léa\u200bMartin',
        'Le pseudo ne peut contenir que des lettres, des chiffres, des espaces, des tirets (-) et des tirets bas (_)',
      ],
      [
        '\u3164\u3164',
        'Le pseudo ne peut contenir que des lettres, des chiffres, des espaces, des tirets (-) et des tirets bas (_)',
      ],
      [
        'Léa\tMartin',
        'Le pseudo ne peut contenir que des lettres, des chiffres, des espaces, des tirets (-) et des tirets bas (_)',
      ],
      ['974', 'Le pseudo ne peut pas être composé uniquement de chiffres'],
      ['06-12 2024', 'Le pseudo ne peut pas être composé uniquement de chiffres'],
      ['--', "Le pseudo ne peut pas être composé uniquement d'espaces, de tirets ou de tirets bas"],
      ['_ - _', "Le pseudo ne peut pas être composé uniquement d'espaces, de tirets ou de tirets bas"],
      [42, 'Requête invalide'],
      [null, 'Requête invalide'],
    ];
    for (const [input, text] of cases) expect(message(nicknameSchema.safeParse(input)), String(input)).toBe(text);
  });
});

describe('bio schema', () => {
  it('stores blank as null, keeps 500 characters, refuses 501 and attacks, strips markup', () => {
    expect(bioSchema.parse('')).toBeNull();
    expect(bioSchema.parse('   \n ')).toBeNull();
    expect(bioSchema.parse(null)).toBeNull();
    expect(bioSchema.parse('é'.repeat(500))).toBe('é'.repeat(500));
    expect(bioSchema.parse('😀'.repeat(500))).toBe('😀'.repeat(500));
    expect(message(bioSchema.safeParse('é'.repeat(501)))).toBe('La bio ne peut pas dépasser 500 caractères');
    expect(message(bioSchema.safeParse('<script>alert(1)</script>'))).toBe('Contenu non autorisé détecté');
    expect(bioSchema.parse(" Surfeuse <b>réunionnaise</b>\nje t'aime <3 ")).toBe("Surfeuse réunionnaise\nje t'aime <3");
  });
});

describe('profile update schema', () => {
  it('refuses any key other than nickname and bio', () => {
    for (const key of ['isPremium', 'pulseCredits', 'role', 'usernameChangesCount', 'email', 'id', 'username']) {
      expect(message(updateProfileSchema.safeParse({ bio: 'Salut', [key]: 1 })), key).toBe(
        'Seuls le pseudo et la bio peuvent être modifiés',
      );
    }
    expect(updateProfileSchema.parse({})).toEqual({});
    expect(message(updateProfileSchema.safeParse([]))).toBe('Requête invalide');
  });
});

describe('nickname cooldown', () => {
  it('allows a change with no previous one, or 30 days after the last', () => {
    const last = new Date('2025-03-01T10:00:00.000Z');
    expect(nextNicknameChangeAt(null, last)).toBeNull();
    const next = new Date('2025-03-31T10:00:00.000Z');
    expect(nextNicknameChangeAt(last, new Date('2025-03-30T10:00:00.000Z'))).toEqual(next);
    expect(nextNicknameChangeAt(last.toISOString(), new Date(next.getTime() - 1))).toEqual(next);
    expect(nextNicknameChangeAt(last, next)).toBeNull();
  });

  it("gives the server's guard the same boundary: a last change at or before the cutoff no longer blocks", () => {
    const last = new Date('2025-03-01T10:00:00.000Z');
    const next = new Date('2025-03-31T10:00:00.000Z');
    expect(nicknameCooldownCutoff(next)).toEqual(last);
    expect(nicknameCooldownCutoff(new Date(next.getTime() - 1)).getTime()).toBeLessThan(last.getTime());
  });
});
