import { EMAIL_MAX, FIRST_NAME_MAX, FIRST_NAME_MIN, LAST_NAME_MAX, LAST_NAME_MIN, MESSAGES, PASSWORD_MAX, PASSWORD_MIN } from '@moodmap/core';

/** Client-side checks of spec §5 (the server enforces the same rules). Each returns a French text or null. */
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function emailError(email: string): string | null {
  const value = email.trim();
  return !EMAIL_PATTERN.test(value) || value.length > EMAIL_MAX ? MESSAGES.email_invalid : null;
}

export function passwordError(password: string): string | null {
  if (password.length < PASSWORD_MIN) return MESSAGES.password_too_short;
  if (password.length > PASSWORD_MAX) return MESSAGES.password_too_long;
  if (!/[A-Z]/.test(password) || !/[a-z]/.test(password) || !/\d/.test(password)) return MESSAGES.password_weak_rule;
  return null;
}

export function loginError(email: string, password: string): string | null {
  if (!email.trim() || !password) return MESSAGES.auth_fields_required;
  return emailError(email) ?? passwordError(password);
}

export interface RegisterFields {
  email: string;
  password: string;
  confirm: string;
  firstName: string;
  lastName: string;
}

export function registerError(f: RegisterFields): string | null {
  if (!f.email.trim() || !f.password || !f.confirm || !f.firstName.trim() || !f.lastName.trim()) {
    return MESSAGES.auth_fields_required;
  }
  const first = f.firstName.trim().length;
  const last = f.lastName.trim().length;
  return (
    emailError(f.email) ??
    passwordError(f.password) ??
    (f.password !== f.confirm ? MESSAGES.password_mismatch : null) ??
    (first < FIRST_NAME_MIN || first > FIRST_NAME_MAX ? MESSAGES.first_name_length : null) ??
    (last < LAST_NAME_MIN || last > LAST_NAME_MAX ? MESSAGES.last_name_length : null)
  );
}

export function forgotError(email: string): string | null {
  return !email.trim() || emailError(email) ? MESSAGES.forgot_email_required : null;
}

/** Reset-password failures by cause (spec §8 "Password reset screen"). */
export function resetFailureMessage(code: string, message = ''): string {
  const text = `${code} ${message}`;
  if (text.includes('session_not_found')) return MESSAGES.reset_session_expired;
  if (text.includes('weak_password')) return MESSAGES.reset_weak_password;
  return MESSAGES.reset_failed;
}
