/**
 * The account API as the web app calls it, and the mapping of its user to the
 * client's current user.
 */
import type { z } from 'zod';
import {
  SHELL_MESSAGES,
  STAFF_ROLES,
  type ChallengeResponse,
  type AuthUserResponse,
  type RecoverResponse,
  type ResetPasswordBody,
  type RoleResponse,
  type SignUpResponse,
  type StaffRole,
} from '@moodmap/core';
import { api } from '../../lib/api.ts';
import { CSRF_HEADERS, loadSessionSchemas, sessionSchemasIfLoaded } from '../../lib/auth-tokens.ts';
import { parseAnswerLazy } from '../../lib/schemas.ts';
import type { ReadUser } from '../../lib/session-schemas.ts';

/** The signed-in user as the client holds it. */
export interface SessionUser {
  id: string;
  email: string;
  /** The profile's username; 'Chargement...' while the profile is not known yet. */
  nickname: string;
  role?: StaffRole;
  /** The account whose e-mail is the admin address: 'Admin' instead of 'Publier' (docs/product.md, Profiles). */
  isAdmin?: boolean;
  profilePhotoUrl?: string | null;
  avatarUrl?: string | null;
  firstName?: string | null;
  lastName?: string | null;
  dateOfBirth?: string | null;
  phoneNumber?: string | null;
  bio?: string | null;
  pulseCredits?: number;
  lastUsernameChange?: string | null;
  usernameChangesCount?: number;
  createdAt?: string | null;
  isPremium?: boolean;
  isPro?: boolean;
  isPlus?: boolean;
  isMulti?: boolean;
}

function roleOf(value: string | undefined): StaffRole {
  return (STAFF_ROLES as readonly string[]).includes(value ?? '') ? (value as StaffRole) : 'user';
}

/**
 * The server's user, or null when the payload is not one (read leniently by session-schemas.ts,
 * loaded on first use).
 */
export async function toSessionUser(payload: unknown): Promise<SessionUser | null> {
  return readSessionUser(await loadSessionSchemas(), payload);
}

/**
 * The same, at once when the schemas are already here (always, for a session parseSession
 * read), else when they are: `apply` runs now or a tick later.
 */
export function withSessionUser(payload: unknown, apply: (user: SessionUser | null) => void): void {
  const loaded = sessionSchemasIfLoaded();
  if (loaded) apply(readSessionUser(loaded, payload));
  else void toSessionUser(payload).then(apply, () => apply(null));
}

function readSessionUser(
  schemas: Pick<typeof import('../../lib/session-schemas.ts'), 'userSchema'>,
  payload: unknown,
): SessionUser | null {
  const parsed = schemas.userSchema.safeParse(payload);
  return parsed.success ? sessionUserOf(parsed.data) : null;
}

/**
 * The client's user from the server's, as read. The nickname follows one chain: the
 * profile's username, else the first name, else the e-mail's local part, else 'Utilisateur'
 * (the server applies the same chain, with the nickname metadata, when it creates the profile).
 */
export function sessionUserOf(user: ReadUser): SessionUser {
  const { id, email, role, isAdmin, profile } = user;
  const nickname = profile
    ? ([profile.username, profile.firstName, email.split('@')[0]].map((v) => v?.trim()).find(Boolean) ?? 'Utilisateur')
    : SHELL_MESSAGES.loading;
  return {
    id,
    email,
    nickname,
    role: roleOf(role),
    isAdmin: isAdmin ?? false,
    ...(profile
      ? {
          profilePhotoUrl: profile.profilePhotoUrl ?? null,
          avatarUrl: profile.avatarUrl ?? null,
          firstName: profile.firstName ?? null,
          lastName: profile.lastName ?? null,
          dateOfBirth: profile.dateOfBirth ?? null,
          phoneNumber: profile.phoneNumber ?? null,
          bio: profile.bio ?? null,
          pulseCredits: profile.pulseCredits ?? 0,
          lastUsernameChange: profile.lastUsernameChange ?? null,
          usernameChangesCount: profile.usernameChangesCount ?? 0,
          createdAt: profile.createdAt ?? null,
          isPremium: profile.isPremium ?? false,
          isPro: profile.isPro ?? false,
          isPlus: profile.isPlus ?? false,
          isMulti: profile.isMulti ?? false,
        }
      : {}),
  };
}

/** Fields kept in localStorage: what the screens display, nothing secret, no phone or birth date. */
const PERSISTED_FIELDS = [
  'id',
  'email',
  'nickname',
  'role',
  'isAdmin',
  'profilePhotoUrl',
  'avatarUrl',
  'firstName',
  'lastName',
  'bio',
  'pulseCredits',
  'lastUsernameChange',
  'usernameChangesCount',
  'createdAt',
  'isPremium',
  'isPro',
  'isPlus',
  'isMulti',
] as const satisfies ReadonlyArray<keyof SessionUser>;

export function persistableUser(user: SessionUser): Partial<SessionUser> {
  return Object.fromEntries(PERSISTED_FIELDS.filter((k) => user[k] !== undefined).map((k) => [k, user[k]]));
}

/** A persisted user read back, or null when it is not a usable one. */
export function readPersistedUser(value: unknown): SessionUser | null {
  if (!value || typeof value !== 'object') return null;
  const v = value as Partial<SessionUser>;
  if (typeof v.id !== 'string' || !v.id || typeof v.email !== 'string' || typeof v.nickname !== 'string') return null;
  return { ...persistableUser(v as SessionUser), id: v.id, email: v.email, nickname: v.nickname, role: roleOf(v.role) };
}

export type Challenge = ChallengeResponse;

/** A new human-check question. */
export async function fetchChallenge(signal?: AbortSignal): Promise<Challenge> {
  return parseAnswerLazy(
    (s) => s.challengeResponseSchema,
    await api<unknown>('/api/auth/challenge', { auth: false, signal }),
  );
}

/** The sign-up body as core's signUpSchema reads it; the honeypots go empty. */
export type SignUpRequest = z.input<typeof import('@moodmap/core/schemas').signUpSchema>;
export function postSignUp(body: SignUpRequest): Promise<SignUpResponse> {
  return api('/api/auth/signup', { method: 'POST', body, auth: false });
}

export function postLogin(email: string, password: string): Promise<unknown> {
  return api('/api/auth/login', { method: 'POST', body: { email, password }, auth: false });
}

/** Ends the session held in the refresh cookie, and clears the cookie (the browser sends it, not us). */
export function postLogout(): Promise<unknown> {
  return api('/api/auth/logout', { method: 'POST', headers: CSRF_HEADERS, auth: false });
}

export function postRecover(email: string): Promise<RecoverResponse> {
  return api('/api/auth/recover', { method: 'POST', body: { email }, auth: false });
}

export function postResetPassword(body: ResetPasswordBody): Promise<unknown> {
  return api('/api/auth/reset-password', { method: 'POST', body, auth: false });
}

/** The signed-in user, fresh from the server (a 401 renews the access token once, see api()). */
export async function fetchSessionUser(signal?: AbortSignal): Promise<SessionUser | null> {
  // Read leniently all the same: a user the client cannot use is no user (null).
  const payload = await api<Partial<AuthUserResponse> | null>('/api/auth/session', { signal });
  return toSessionUser(payload?.user);
}

/** The caller's role as the server names it ('user' when none is returned). */
export async function fetchRole(signal?: AbortSignal): Promise<string> {
  const payload = await api<Partial<RoleResponse> | null>('/api/auth/role', { signal });
  return typeof payload?.role === 'string' && payload.role ? payload.role : 'user';
}
