/**
 * The confirmation e-mail's link lands on `/?type=signup#refresh_token=R` (or `/?error=link_invalid`
 * when it was used or expired). Before the router reads the address, main.tsx calls
 * `captureAuthLink()`: the token is stored as the session's refresh token (the session restore
 * then signs the person in), and the address is cleaned to `/` so the token neither stays in
 * the history nor reaches a bookmark.
 */
import { readString, removeKey, STORAGE_KEYS, writeString } from '../../lib/storage.ts';
import { postLogout } from './auth-api.ts';

export type AuthLink = { kind: 'signup' } | { kind: 'invalid' };

let captured: AuthLink | null = null;

function params(raw: string): URLSearchParams {
  return new URLSearchParams(raw.replace(/^[?#]/, ''));
}

/** Reads and cleans the address; remembers what it found for `takeAuthLink`. */
export function captureAuthLink(win: Window = window): AuthLink | null {
  const { pathname, search, hash } = win.location;
  const query = params(search);
  const fragment = params(hash);
  const refreshToken = fragment.get('refresh_token');
  const signup = query.get('type') === 'signup' || fragment.get('type') === 'signup';
  let link: AuthLink | null = null;
  if (signup && refreshToken && !fragment.has('access_token')) {
    const previous = readString(STORAGE_KEYS.refreshToken);
    if (previous && previous !== refreshToken) {
      // Another account was signed in here: end it, and let other tabs see a sign-out then a sign-in.
      removeKey(STORAGE_KEYS.refreshToken);
      void postLogout(previous).catch(() => undefined);
    }
    writeString(STORAGE_KEYS.refreshToken, refreshToken);
    link = { kind: 'signup' };
  } else if (pathname === '/' && query.get('error') === 'link_invalid') {
    link = { kind: 'invalid' };
  }
  if (link) {
    win.history.replaceState(win.history.state, '', '/');
    captured = link;
  }
  return link;
}

/** What `captureAuthLink` found, once. */
export function takeAuthLink(): AuthLink | null {
  const link = captured;
  captured = null;
  return link;
}
