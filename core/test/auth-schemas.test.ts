import { describe, expect, it } from 'vitest';
import {
  MESSAGES,
  emailSchema,
  forgotPasswordSchema,
  passwordSchema,
  resetPasswordFormSchema,
  signInSchema,
  signUpFormSchema,
  signUpSchema,
} from '../src/index.ts';
import { firstMessage, validSignUp } from './support.ts';

const valid = { ...validSignUp, email: 'Lea.Martin@Example.fr' };

describe('e-mail', () => {
  it('is required, trimmed and lower-cased', () => {
    expect(firstMessage(emailSchema, undefined)).toBe(MESSAGES.auth_fields_required);
    expect(firstMessage(emailSchema, '   ')).toBe(MESSAGES.auth_fields_required);
    expect(emailSchema.parse('  Lea@Example.FR ')).toBe('lea@example.fr');
  });
  it('matches a basic pattern and 254 characters at most', () => {
    for (const bad of ['lea', 'lea@', 'lea@example', 'l a@example.fr', '@example.fr']) {
      expect(firstMessage(emailSchema, bad), bad).toBe(MESSAGES.email_invalid);
    }
    const local = 'a'.repeat(64);
    const long = `${local}@${'b'.repeat(254 - 64 - 1 - 3)}.fr`;
    expect(long).toHaveLength(254);
    expect(firstMessage(emailSchema, long)).toBeUndefined();
    expect(firstMessage(emailSchema, `a${long}`)).toBe(MESSAGES.email_invalid);
  });
  it('refuses attack input with its own message', () => {
    expect(firstMessage(emailSchema, '<script>alert(1)</script>@x.fr')).toBe(MESSAGES.email_critical);
    expect(firstMessage(emailSchema, "x' OR 1=1 --@x.fr")).toBe(MESSAGES.email_critical);
  });
  it('has its own required text on the forgot-password form', () => {
    expect(firstMessage(forgotPasswordSchema, { email: '' })).toBe(MESSAGES.forgot_email_required);
    expect(firstMessage(forgotPasswordSchema, { email: 'nope' })).toBe(MESSAGES.email_invalid);
  });
});

describe('password', () => {
  it.each([
    ['', MESSAGES.auth_fields_required],
    ['Abc1', MESSAGES.password_too_short],
    [`Aa1${'x'.repeat(126)}`, MESSAGES.password_too_long],
    ['soleil2024', MESSAGES.password_weak_rule],
    ['SOLEIL2024', MESSAGES.password_weak_rule],
    ['SoleilSoleil', MESSAGES.password_weak_rule],
    ['<script>Aa1</script>', MESSAGES.password_critical],
  ])('%j → %s', (password, message) => {
    expect(firstMessage(passwordSchema, password)).toBe(message);
  });
  it('accepts 8 and 128 characters with upper, lower and digit, accents included', () => {
    expect(firstMessage(passwordSchema, 'Soleil24')).toBeUndefined();
    expect(firstMessage(passwordSchema, `Aa1${'x'.repeat(125)}`)).toBeUndefined();
    expect(firstMessage(passwordSchema, 'ÉTÉsoleil9')).toBeUndefined();
  });
  it('is only required and bounded at sign-in', () => {
    expect(signInSchema.safeParse({ email: 'a@b.fr', password: 'weak' }).success).toBe(true);
    expect(firstMessage(signInSchema, { email: 'a@b.fr', password: '' })).toBe(MESSAGES.auth_fields_required);
    expect(firstMessage(signInSchema, { email: '', password: 'x' })).toBe(MESSAGES.auth_fields_required);
  });
});

describe('sign-up', () => {
  it('accepts a complete form and normalises it', () => {
    const parsed = signUpSchema.parse({ ...valid, firstName: '  <b>Léa</b> ' });
    expect(parsed.email).toBe('lea.martin@example.fr');
    expect(parsed.firstName).toBe('Léa');
  });
  it('requires every field', () => {
    for (const field of ['email', 'password', 'firstName', 'lastName'] as const) {
      expect(firstMessage(signUpSchema, { ...valid, [field]: '' }), field).toBe(MESSAGES.auth_fields_required);
    }
    expect(firstMessage(signUpSchema, { ...valid, challengeAnswer: '' })).toBe(MESSAGES.human_check_required);
    expect(firstMessage(signUpSchema, { ...valid, challengeToken: undefined })).toBe(MESSAGES.human_check_required);
  });
  it('bounds first name 2–50 and last name 2–18', () => {
    expect(firstMessage(signUpSchema, { ...valid, firstName: 'L' })).toBe(MESSAGES.first_name_length);
    expect(firstMessage(signUpSchema, { ...valid, firstName: 'L'.repeat(51) })).toBe(MESSAGES.first_name_length);
    expect(firstMessage(signUpSchema, { ...valid, firstName: 'L'.repeat(50) })).toBeUndefined();
    expect(firstMessage(signUpSchema, { ...valid, lastName: 'M' })).toBe(MESSAGES.last_name_length);
    expect(firstMessage(signUpSchema, { ...valid, lastName: 'M'.repeat(19) })).toBe(MESSAGES.last_name_length);
    expect(firstMessage(signUpSchema, { ...valid, lastName: 'M'.repeat(18) })).toBeUndefined();
    // Markup is stripped before the length is checked.
    expect(firstMessage(signUpSchema, { ...valid, firstName: '<i>L</i>' })).toBe(MESSAGES.first_name_length);
  });
  it('refuses attack input in names', () => {
    expect(firstMessage(signUpSchema, { ...valid, firstName: '<script>x</script>' })).toBe(
      MESSAGES.first_name_critical,
    );
    expect(firstMessage(signUpSchema, { ...valid, lastName: '<img onerror=x>' })).toBe(MESSAGES.last_name_critical);
  });
  it('checks the confirmation on the form', () => {
    const form = {
      email: valid.email,
      password: valid.password,
      confirmPassword: valid.password,
      firstName: 'Léa',
      lastName: 'Martin',
    };
    expect(signUpFormSchema.safeParse(form).success).toBe(true);
    expect(firstMessage(signUpFormSchema, { ...form, confirmPassword: 'Soleil2025' })).toBe(MESSAGES.password_mismatch);
  });
});

describe('reset-password form', () => {
  it('applies the password rules and the confirmation', () => {
    expect(firstMessage(resetPasswordFormSchema, { password: 'court', confirmPassword: 'court' })).toBe(
      MESSAGES.password_too_short,
    );
    expect(firstMessage(resetPasswordFormSchema, { password: 'Soleil2024', confirmPassword: 'Soleil2025' })).toBe(
      MESSAGES.password_mismatch,
    );
    expect(resetPasswordFormSchema.safeParse({ password: 'Soleil2024', confirmPassword: 'Soleil2024' }).success).toBe(
      true,
    );
  });
});
