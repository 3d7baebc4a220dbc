import { create } from 'zustand';
import type { QueryClient } from '@tanstack/react-query';
import { MESSAGES } from '@moodmap/core';
import { ApiError, api } from '../lib/api.ts';
import { configQuery } from './config.ts';

/** The signed-in user as the client holds it (spec §3 "Current user"). */
export interface SessionUser {
  id: string;
  email: string;
  nickname: string;
  profilePhotoUrl?: string | null;
  firstName?: string | null;
  lastName?: string | null;
  bio?: string | null;
  pulseCredits?: number;
}

export type SessionStatus = 'initialising' | 'ready';

/** Outcome of an auth form action: the form shows `message` (the server's French text) on failure. */
export type AuthResult = { ok: true } | { ok: false; code: string; message: string };

export interface SignUpInput {
  email: string;
  password: string;
  firstName: string;
  lastName: string;
}

interface SessionState {
  status: SessionStatus;
  user: SessionUser | null;
  /** Runs once at start-up; the splash shows until it has settled. */
  initialise: (queryClient: QueryClient) => Promise<void>;
  signIn: (email: string, password: string) => Promise<AuthResult>;
  signUp: (input: SignUpInput) => Promise<AuthResult>;
  requestPasswordReset: (email: string) => Promise<AuthResult>;
  signOut: () => Promise<void>;
}

function failure(error: unknown): AuthResult {
  if (error instanceof ApiError) return { ok: false, code: error.code, message: error.message };
  return { ok: false, code: 'internal_error', message: MESSAGES.internal_error };
}

function userFrom(payload: unknown): SessionUser | null {
  if (!payload || typeof payload !== 'object') return null;
  const user = (payload as { user?: unknown }).user;
  if (!user || typeof user !== 'object') return null;
  const u = user as Partial<SessionUser>;
  return typeof u.id === 'string' && typeof u.email === 'string'
    ? { ...u, id: u.id, email: u.email, nickname: u.nickname ?? u.email.split('@')[0] ?? 'Utilisateur' }
    : null;
}

let initialising: Promise<void> | null = null;

export const useSessionStore = create<SessionState>()((set) => ({
  status: 'initialising',
  user: null,

  initialise: (queryClient) => {
    // The session restore (next issue) joins this promise; the config must be known before the
    // map picks its style, so the splash covers both.
    initialising ??= queryClient
      .fetchQuery(configQuery)
      .then(
        () => undefined,
        () => undefined,
      )
      .finally(() => set({ status: 'ready' }));
    return initialising;
  },

  signIn: async (email, password) => {
    try {
      const payload = await api<unknown>('/api/auth/login', { method: 'POST', body: { email, password } });
      set({ user: userFrom(payload) });
      return { ok: true };
    } catch (error) {
      return failure(error);
    }
  },

  signUp: async (input) => {
    try {
      await api<unknown>('/api/auth/register', { method: 'POST', body: input });
      return { ok: true };
    } catch (error) {
      return failure(error);
    }
  },

  requestPasswordReset: async (email) => {
    try {
      await api<unknown>('/api/auth/forgot-password', { method: 'POST', body: { email } });
      return { ok: true };
    } catch (error) {
      return failure(error);
    }
  },

  signOut: async () => {
    try {
      await api<unknown>('/api/auth/logout', { method: 'POST' });
    } catch {
      // Signing out locally must work even if the server is unreachable.
    }
    set({ user: null });
  },
}));
