/**
 * Account validation (docs/product.md, Accounts): one zod schema per
 * input, one French catalogue text per rule. The server validates request bodies with them and
 * the web forms show the first issue's message, so both sides always agree.
 *
 * Order matters: checks run in order and `abort` stops at the first failure of a field, so a
 * field reports "required", then its maximum length, then "format invalide détecté" (an
 * attack), then its shape. The length comes before the attack scan so that an over-long value
 * is refused without being scanned; in zod 4 only an `abort: true` check stops the
 * checks after it, so every maximum here aborts.
 */
import { z } from 'zod';
import {
  EMAIL_MAX,
  SANITISED_TEXT_MAX,
  FIRST_NAME_MAX,
  FIRST_NAME_MIN,
  LAST_NAME_MAX,
  LAST_NAME_MIN,
  PASSWORD_MAX,
  PASSWORD_MIN,
} from '../limits.ts';
import { STAFF_ROLES } from '../limits.ts';
import { MESSAGES } from '../messages.ts';
import { isCritical, stripMarkup } from '../sanitize.ts';
import { EMAIL_PATTERN } from '../contract.ts';
import { profileIdentityShape, tierFlagsShape } from './shapes.ts';
export { EMAIL_PATTERN, CSRF_HEADER } from '../contract.ts';

const required = MESSAGES.auth_fields_required;
/** Bounds of inputs the product gives no limit: a typed answer, the signed challenge, a trap field's text. */
const CHALLENGE_ANSWER_MAX = 100;
const CHALLENGE_TOKEN_MAX = 4096;
const HONEYPOT_MAX = 1000;
const notCritical = (message: string) => ({ error: message, abort: true }) as const;

/** A required string: missing, not a string, or blank all read "Veuillez remplir tous les champs". */
const requiredString = (message: string = required) =>
  z.string({ error: message }).trim().min(1, { error: message, abort: true });

const emailWith = (requiredMessage: string) =>
  requiredString(requiredMessage)
    .max(EMAIL_MAX, { error: MESSAGES.email_invalid, abort: true })
    .refine((v) => !isCritical(v), notCritical(MESSAGES.email_critical))
    .regex(EMAIL_PATTERN, MESSAGES.email_invalid)
    // Addresses are compared case-insensitively (the database index is on lower(email)).
    .transform((v) => v.toLowerCase());

export const emailSchema = emailWith(required);

/** Whether a password satisfies the strength rule (upper, lower and digit). */
export function passwordHasRequiredClasses(password: string): boolean {
  return /\p{Lu}/u.test(password) && /\p{Ll}/u.test(password) && /\p{Nd}/u.test(password);
}

/** A new password: 8–128 characters with an uppercase, a lowercase and a digit. Never trimmed. */
export const passwordSchema = z
  .string({ error: required })
  .min(1, { error: required, abort: true })
  .max(PASSWORD_MAX, { error: MESSAGES.password_too_long, abort: true })
  .refine((v) => !isCritical(v), notCritical(MESSAGES.password_critical))
  .min(PASSWORD_MIN, { error: MESSAGES.password_too_short, abort: true })
  .refine(passwordHasRequiredClasses, MESSAGES.password_weak_rule);

/**
 * The password typed at sign-in is only checked for presence and size: a wrong one is an
 * "Email ou mot de passe incorrect", whatever its shape.
 */
export const signInPasswordSchema = z
  .string({ error: required })
  .min(1, { error: required, abort: true })
  .max(PASSWORD_MAX, { error: MESSAGES.password_too_long, abort: true });

/** The confirmation is only compared with the password, so it is bounded like one. */
const confirmPasswordSchema = z
  .string({ error: required })
  .min(1, { error: required, abort: true })
  .max(PASSWORD_MAX, { error: MESSAGES.password_too_long, abort: true });

/**
 * Markup is stripped before a name's length is checked (`<b>Léa</b>` is Léa), so the name as
 * typed is only bounded by the sanitiser's cut, before it is scanned.
 */
const nameSchema = (criticalMessage: string, lengthMessage: string, min: number, max: number) =>
  requiredString()
    .max(SANITISED_TEXT_MAX, { error: lengthMessage, abort: true })
    .refine((v) => !isCritical(v), notCritical(criticalMessage))
    // Harmless markup (`<b>Léa</b>`) is stripped rather than refused; the length is checked after.
    .transform((v) => stripMarkup(v).trim())
    .pipe(z.string().min(min, lengthMessage).max(max, lengthMessage));

export const firstNameSchema = nameSchema(
  MESSAGES.first_name_critical,
  MESSAGES.first_name_length,
  FIRST_NAME_MIN,
  FIRST_NAME_MAX,
);
export const lastNameSchema = nameSchema(
  MESSAGES.last_name_critical,
  MESSAGES.last_name_length,
  LAST_NAME_MIN,
  LAST_NAME_MAX,
);

export const signInSchema = z.object({
  email: emailSchema,
  password: signInPasswordSchema,
});
export type SignInInput = z.infer<typeof signInSchema>;

/** The human-check answer as typed; the server decides whether it is right. */
export const challengeAnswerSchema = requiredString(MESSAGES.human_check_required).pipe(
  z.string().max(CHALLENGE_ANSWER_MAX, MESSAGES.human_check_failed),
);

/**
 * A hidden trap field of the bot check: a person leaves it empty, a bot fills it in. It is a
 * text field, so anything but a string (or null) is a malformed request, not a score.
 */
const honeypotSchema = z
  .string({ error: MESSAGES.bad_request })
  .max(HONEYPOT_MAX, { error: MESSAGES.bad_request, abort: true })
  .nullish();

/** The sign-up request body: the form's fields, the solved challenge and the honeypots. */
export const signUpSchema = z.object({
  email: emailSchema,
  password: passwordSchema,
  firstName: firstNameSchema,
  lastName: lastNameSchema,
  challengeToken: requiredString(MESSAGES.human_check_required).pipe(
    z.string().max(CHALLENGE_TOKEN_MAX, MESSAGES.human_check_required),
  ),
  challengeAnswer: challengeAnswerSchema,
  /** Hidden fields a person never fills (the bot check). A non-blank value counts against the caller. */
  website: honeypotSchema,
  fax: honeypotSchema,
  /** The version of the terms of use the person accepted; the server checks it is the current one. */
  termsVersion: requiredString(MESSAGES.terms_required).pipe(z.string().max(40, MESSAGES.terms_required)),
});
export type SignUpInput = z.infer<typeof signUpSchema>;

/** The registration form: the same fields plus the password confirmation. */
export const signUpFormSchema = z
  .object({
    email: emailSchema,
    password: passwordSchema,
    confirmPassword: confirmPasswordSchema,
    firstName: firstNameSchema,
    lastName: lastNameSchema,
  })
  .refine((v) => v.password === v.confirmPassword, { error: MESSAGES.password_mismatch, path: ['confirmPassword'] });
export type SignUpFormInput = z.infer<typeof signUpFormSchema>;

/** "Mot de passe oublié": only the address, with its own "required" text. */
export const forgotPasswordSchema = z.object({
  email: emailWith(MESSAGES.forgot_email_required),
});
export type ForgotPasswordInput = z.infer<typeof forgotPasswordSchema>;

/** The reset-password screen's two fields. */
export const resetPasswordFormSchema = z
  .object({
    password: passwordSchema,
    confirmPassword: confirmPasswordSchema,
  })
  .refine((v) => v.password === v.confirmPassword, { error: MESSAGES.password_mismatch, path: ['confirmPassword'] });
export type ResetPasswordFormInput = z.infer<typeof resetPasswordFormSchema>;

/** A staff role as the answers name it ('user' for everyone else). */
export const staffRoleSchema = z.enum(STAFF_ROLES);

/** The profile inside every auth answer's `user` (the profile's columns, camelCase). */
export const authProfileSchema = z.object({
  ...profileIdentityShape,
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  /** YYYY-MM-DD */
  dateOfBirth: z.string().nullable(),
  phoneNumber: z.string().nullable(),
  /** ISO 8601 */
  createdAt: z.string(),
  ...tierFlagsShape,
  pulseCredits: z.number(),
  lastUsernameChange: z.string().nullable(),
  usernameChangesCount: z.number(),
});
export type AuthProfile = z.infer<typeof authProfileSchema>;

/** The signed-in user as /api/auth/* return it. */
export const authUserSchema = z.object({
  id: z.string(),
  email: z.string(),
  role: staffRoleSchema,
  /** The account whose e-mail is the configured admin address sees 'Admin' instead of 'Publier'. */
  isAdmin: z.boolean(),
  profile: authProfileSchema,
  /** A moderator's suspension: no posting, commenting or messaging until then (ISO). */
  suspendedUntil: z.string().nullable().optional(),
});
export type AuthUser = z.infer<typeof authUserSchema>;

/**
 * Answer of login, refresh, reset-password and password change as sent: the refresh token
 * goes into the HttpOnly cookie, never into the body.
 */
export const authSessionBodySchema = z.object({
  accessToken: z.string(),
  /** Seconds the access token lives (900). */
  expiresIn: z.number(),
  user: authUserSchema,
});
export type AuthSessionBody = z.infer<typeof authSessionBodySchema>;

/** What the server's auth service hands its routes: the body plus the cookie's refresh token. */
export interface AuthSessionResponse extends AuthSessionBody {
  refreshToken: string;
}

/** `GET /api/auth/session` and every profile edit: the fresh user. */
export const authUserResponseSchema = z.object({ user: authUserSchema });
export type AuthUserResponse = z.infer<typeof authUserResponseSchema>;

/** `GET /api/auth/challenge`: the signed human-check question. */
export const challengeResponseSchema = z.object({ token: z.string(), question: z.string() });
export type ChallengeResponse = z.infer<typeof challengeResponseSchema>;

/** `POST /api/auth/signup` → 201. */
export const signUpResponseSchema = z.object({ status: z.literal('confirmation_sent'), email: z.string() });
export type SignUpResponse = z.infer<typeof signUpResponseSchema>;

/** `POST /api/auth/recover`: the same answer whether or not the address has an account. */
export const recoverResponseSchema = z.object({ status: z.literal('sent') });
export type RecoverResponse = z.infer<typeof recoverResponseSchema>;

/** `GET /api/auth/role` */
export const roleResponseSchema = z.object({ role: staffRoleSchema });
export type RoleResponse = z.infer<typeof roleResponseSchema>;

/** `GET /api/auth/verify`: the e-mail link; anything else redirects to the "link invalid" screen. */
export const verifyLinkQuerySchema = z.object({
  type: z.string().max(20).optional(),
  token: z.string().max(4096).optional(),
});

/** `POST /api/auth/reset-password`: the recovery session's two tokens and the new password. */
export const resetPasswordBodySchema = z.object({
  accessToken: z.string({ error: MESSAGES.reset_tokens_missing }).min(1, MESSAGES.reset_tokens_missing).max(4096),
  refreshToken: z.string({ error: MESSAGES.reset_tokens_missing }).min(1, MESSAGES.reset_tokens_missing).max(4096),
  // The rules are checked by the service, which answers weak_password to the reset screen.
  password: z.string({ error: MESSAGES.auth_fields_required }).max(1024),
});
export type ResetPasswordBody = z.infer<typeof resetPasswordBodySchema>;

/** `POST /api/auth/password`: the signed-in user's new password (rules checked by the service). */
export const passwordChangeBodySchema = z.object({
  password: z.string({ error: MESSAGES.auth_fields_required }).max(1024),
});
