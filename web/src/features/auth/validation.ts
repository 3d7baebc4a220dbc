/**
 * Client-side checks of the account forms with the same zod schemas the server validates with
 * (core), so the form says exactly what the server would. Each returns one French text, or null.
 */
import type { z } from 'zod';
import {
  challengeAnswerSchema,
  forgotPasswordSchema,
  MESSAGES,
  resetPasswordFormSchema,
  signInSchema,
  signUpFormSchema,
} from '@moodmap/core';

/**
 * The text to show for a failed parse: 'Veuillez remplir tous les champs' as soon as any field
 * is empty, otherwise the first issue in the form's order.
 */
function firstMessage(error: z.ZodError, order: readonly string[]): string {
  const issues = error.issues;
  const required = issues.find((i) => i.message === MESSAGES.auth_fields_required);
  if (required) return required.message;
  const rank = (i: (typeof issues)[number]) => {
    const at = order.indexOf(String(i.path[0] ?? ''));
    return at === -1 ? order.length : at;
  };
  return [...issues].sort((a, b) => rank(a) - rank(b))[0]?.message ?? MESSAGES.bad_request;
}

export function loginError(email: string, password: string): string | null {
  const result = signInSchema.safeParse({ email, password });
  return result.success ? null : firstMessage(result.error, ['email', 'password']);
}

export interface RegisterFields {
  email: string;
  password: string;
  confirm: string;
  firstName: string;
  lastName: string;
  /** The human check's answer; `challengeReady` says whether a question is on screen. */
  answer: string;
}

const REGISTER_ORDER = ['email', 'password', 'confirmPassword', 'firstName', 'lastName'] as const;

export function registerError(f: RegisterFields, challengeReady: boolean): string | null {
  const result = signUpFormSchema.safeParse({
    email: f.email,
    password: f.password,
    confirmPassword: f.confirm,
    firstName: f.firstName,
    lastName: f.lastName,
  });
  if (!result.success) return firstMessage(result.error, REGISTER_ORDER);
  // The human check must be solved ('Veuillez compléter la vérification anti-robot').
  if (!challengeReady) return MESSAGES.human_check_required;
  const answer = challengeAnswerSchema.safeParse(f.answer);
  return answer.success ? null : (answer.error.issues[0]?.message ?? MESSAGES.human_check_required);
}

export function forgotError(email: string): string | null {
  const result = forgotPasswordSchema.safeParse({ email });
  return result.success ? null : firstMessage(result.error, ['email']);
}

/** The reset screen's two fields (it disables submit itself while they are empty or differ). */
export function resetError(password: string, confirmPassword: string): string | null {
  const result = resetPasswordFormSchema.safeParse({ password, confirmPassword });
  return result.success ? null : firstMessage(result.error, ['password', 'confirmPassword']);
}

/** Reset-password failures by cause. */
export function resetFailureMessage(code: string, message = ''): string {
  const text = `${code} ${message}`;
  if (text.includes('session_not_found')) return MESSAGES.reset_session_expired;
  if (text.includes('weak_password')) return MESSAGES.reset_weak_password;
  return MESSAGES.reset_failed;
}
