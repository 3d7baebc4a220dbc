/** The shapes and durations of sessions and their refresh tokens (sessions.ts tells the rules). */
import type { FastifyBaseLogger } from 'fastify';
import { DAY } from '@moodmap/core';
import type { EventBus } from '../../adapters/bus/types.ts';
import type { Db } from '../../db/client.ts';
import type { LogSecurityEvent } from '../security/log.ts';
import type { AuthKeys } from './tokens.ts';

export const REFRESH_TOKEN_TTL_MS = 30 * DAY;
export const REFRESH_GRACE_MS = 30_000;

export type SessionKind = 'password' | 'signup' | 'recovery';

export interface IssuedSession {
  userId: string;
  sessionId: string;
  accessToken: string;
  refreshToken: string;
  expiresIn: number;
}

export interface Identity {
  userId: string;
  email: string;
  sessionId: string;
  /** When the access token expires (epoch ms). */
  expiresAtMs: number;
}

export type RotateResult =
  | { ok: true; session: IssuedSession }
  | { ok: false; reason: 'unknown' | 'expired' | 'revoked' | 'reused'; userId?: string };

export interface SessionDeps {
  db: Db;
  keys: AuthKeys;
  now: () => Date;
  logSecurityEvent: LogSecurityEvent;
  /** Where revocations are announced to every instance's WebSocket hub. */
  bus: EventBus;
  log: FastifyBaseLogger;
}
