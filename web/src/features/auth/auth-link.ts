/**
 * The confirmation e-mail's link signs the person in on the server: the session's refresh
 * token arrives in the HttpOnly cookie and the browser lands on `/?type=signup` (or
 * `/?error=link_invalid` when it was used or expired). Before the router reads the address,
 * main.tsx calls `captureAuthLink()`: it records the new sign-in (the session restore then
 * refreshes with the cookie), and cleans the address to `/`.
 */
import { markSignedIn } from '../../lib/auth-tokens.ts';

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
  let link: AuthLink | null = null;
  if (pathname === '/' && query.get('type') === 'signup' && !fragment.has('access_token')) {
    // Whoever was signed in here before, the cookie now holds this account's session.
    markSignedIn();
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
