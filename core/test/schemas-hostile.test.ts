/**
 * Hostile input for the shared schemas: lengths are checked before the
 * attack scan, the honeypots are typed exactly, and no JSON value makes a schema throw.
 */
import fc from 'fast-check';
import type { z } from 'zod';
import { describe, expect, it } from 'vitest';
import {
  MESSAGES,
  bioSchema,
  commentInputSchema,
  createConversationSchema,
  createPostSchema,
  emailSchema,
  forgotPasswordSchema,
  messageContentSchema,
  nicknameSchema,
  passwordSchema,
  reportPostSchema,
  resetPasswordFormSchema,
  searchQuerySchema,
  signInSchema,
  signUpFormSchema,
  signUpSchema,
  updateProfileSchema,
} from '../src/index.ts';
import { firstMessage, validSignUp } from './support.ts';

/** An attack that would be flagged if it were scanned, padded past the field's maximum. */
const longAttack = (length: number) => `<script>alert(1)</script>${'a'.repeat(length)}`;

/** See sanitize-hostile.test.ts: not a timing assertion, only the end of a run that would never end. */
const NEVER_ENDS = 60_000;

describe('lengths are checked before the attack scan', () => {
  it('refuses an over-long value for its length, not as an attack', () => {
    expect(firstMessage(emailSchema, `${longAttack(300)}@x.fr`)).toBe(MESSAGES.email_invalid);
    expect(firstMessage(passwordSchema, longAttack(200))).toBe(MESSAGES.password_too_long);
    expect(firstMessage(signUpSchema, { ...validSignUp, firstName: longAttack(1000) })).toBe(
      MESSAGES.first_name_length,
    );
    expect(firstMessage(commentInputSchema, { content: longAttack(500) })).toBe(MESSAGES.comment_too_long);
    expect(firstMessage(reportPostSchema, { reason: 'other', details: longAttack(500) })).toBe(
      MESSAGES.report_details_too_long,
    );
    expect(firstMessage(messageContentSchema, longAttack(1000))).toBe(MESSAGES.message_too_long);
    expect(firstMessage(bioSchema, longAttack(500))).toBe(MESSAGES.bio_too_long);
  });

  it('still refuses an attack within the limits as an attack', () => {
    expect(firstMessage(emailSchema, '<script>alert(1)</script>@x.fr')).toBe(MESSAGES.email_critical);
    expect(firstMessage(passwordSchema, '<script>Aa1</script>')).toBe(MESSAGES.password_critical);
    expect(firstMessage(commentInputSchema, { content: '<script>x</script>' })).toBe(MESSAGES.content_forbidden);
    expect(firstMessage(messageContentSchema, 'javascript:alert(1)')).toBe(MESSAGES.content_forbidden);
    expect(firstMessage(bioSchema, '<img onerror=x>')).toBe(MESSAGES.content_forbidden);
  });

  it(
    'answers at once for the login that froze the server',
    () => {
      const email = "'" + ' '.repeat(1_000_000) + 'x@x.fr';
      expect(firstMessage(signInSchema, { email, password: 'x' })).toBe(MESSAGES.email_invalid);
      expect(firstMessage(forgotPasswordSchema, { email })).toBe(MESSAGES.email_invalid);
      expect(firstMessage(signUpSchema, { ...validSignUp, lastName: "'" + ' '.repeat(1_000_000) + '--' })).toBe(
        MESSAGES.last_name_length,
      );
    },
    NEVER_ENDS,
  );
});

describe('honeypots', () => {
  const deepArray = () => {
    let value: unknown = [];
    for (let i = 0; i < 200_000; i++) value = [value];
    return value;
  };

  it.each([
    ['an object with toString', { toString: 1 }],
    ['a 200 000-deep array', deepArray()],
    ['a number', 12],
    ['a string too long for a text field', 'x'.repeat(1001)],
  ])('refuses %s as a bad request', (_, value) => {
    for (const field of ['website', 'fax']) {
      expect(firstMessage(signUpSchema, { ...validSignUp, [field]: value }), field).toBe(MESSAGES.bad_request);
    }
  });

  it('accepts them missing, empty, null or filled with text (the bot score reads the text)', () => {
    expect(signUpSchema.parse(validSignUp).website).toBeUndefined();
    expect(signUpSchema.parse({ ...validSignUp, website: '', fax: null })).toMatchObject({ website: '', fax: null });
    expect(signUpSchema.parse({ ...validSignUp, website: 'http://spam.example' }).website).toBe('http://spam.example');
  });
});

describe('search moods', () => {
  it('reads text, repeated or comma-separated, and refuses anything else', () => {
    expect(searchQuerySchema.parse({ q: 'plage', moods: 'love,happy' }).moods).toEqual(['happy', 'love']);
    expect(searchQuerySchema.parse({ q: 'plage', moods: ['love', 'nope'] }).moods).toEqual(['love']);
    expect(searchQuerySchema.parse({ q: 'plage' }).moods).toHaveLength(5);
    expect(searchQuerySchema.safeParse({ q: 'plage', moods: { toString: 1 } }).success).toBe(false);
    expect(searchQuerySchema.safeParse({ q: 'plage', moods: 'x'.repeat(10_000) }).success).toBe(false);
  });
});

const SCHEMAS: ReadonlyArray<readonly [string, z.ZodType]> = [
  ['signUp', signUpSchema],
  ['signUpForm', signUpFormSchema],
  ['signIn', signInSchema],
  ['forgotPassword', forgotPasswordSchema],
  ['resetPasswordForm', resetPasswordFormSchema],
  ['createPost', createPostSchema],
  ['comment', commentInputSchema],
  ['report', reportPostSchema],
  ['search', searchQuerySchema],
  ['createConversation', createConversationSchema],
  ['messageContent', messageContentSchema],
  ['updateProfile', updateProfileSchema],
  ['nickname', nicknameSchema],
  ['bio', bioSchema],
];

/** Text with NUL and other control characters, markup and lone surrogates. */
const nastyString = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 60 }),
  fc.constantFrom(
    '\u0000',
    'a\u0000b@x.fr',
    '<script>',
    "' or 1=1 --",
    '\ud800',
    '__proto__',
    'constructor',
    '&constructor;',
    `&#${'9'.repeat(400)};`,
  ),
);
/** Any JSON value, with the nasty strings as keys and values, nested up to 20 deep. */
const jsonish = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', maxDepth: 20 },
    nastyString,
    fc.double(),
    fc.integer(),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(nastyString, tie('value'), { maxKeys: 4 }),
  ),
})).value;

/** Objects with the schemas' own keys, so that every field's checks are reached. */
const FIELDS = [
  'email',
  'password',
  'confirmPassword',
  'firstName',
  'lastName',
  'challengeToken',
  'challengeAnswer',
  'website',
  'fax',
  'category',
  'content',
  'latitude',
  'longitude',
  'imageUploadId',
  'audioUploadId',
  'usePulseEffect',
  'reason',
  'details',
  'q',
  'moods',
  'userId',
  'nickname',
  'bio',
];
const shapedObject = fc.dictionary(fc.constantFrom(...FIELDS), fc.oneof(jsonish, nastyString), { maxKeys: 10 });

describe('no JSON value makes a schema throw (fast-check, fixed seed)', () => {
  it.each(SCHEMAS)('%s', (_, schema) => {
    fc.assert(
      fc.property(
        fc.oneof(fc.anything({ maxDepth: 5, withNullPrototype: true, withObjectString: true }), jsonish, shapedObject),
        (value) => {
          const result = schema.safeParse(value);
          expect(typeof result.success).toBe('boolean');
        },
      ),
      { seed: 42, numRuns: 300 },
    );
  });

  it.each(SCHEMAS)('%s, with a 100 000-deep value in every field', (_, schema) => {
    let deep: unknown = {};
    for (let i = 0; i < 100_000; i++) deep = i % 2 ? [deep] : { a: deep };
    const value = Object.fromEntries(FIELDS.map((field) => [field, deep]));
    expect(() => schema.safeParse(value)).not.toThrow();
    expect(() => schema.safeParse(deep)).not.toThrow();
  });
});
