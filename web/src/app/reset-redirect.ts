/**
 * The reset-password URL-forcing rule: whenever the address carries a
 * recovery type, or both an access token and a refresh token, in the query or the hash, the app
 * goes to /reset-password, keeping query and hash; tokens found in the hash move to the query.
 * Pure, so it is unit-tested; main.tsx applies it with history.replaceState before routing.
 */
export const RESET_PATH = '/reset-password';

/** Hash parameters that move into the query string. */
const MOVED_KEYS = ['type', 'access_token', 'refresh_token'] as const;

export interface AddressParts {
  pathname: string;
  search: string;
  hash: string;
}

function params(raw: string, prefix: '?' | '#'): URLSearchParams {
  return new URLSearchParams(raw.startsWith(prefix) ? raw.slice(1) : raw);
}

/** True when the address asks for a password reset. */
export function isRecoveryAddress({ search, hash }: Pick<AddressParts, 'search' | 'hash'>): boolean {
  const query = params(search, '?');
  const fragment = params(hash, '#');
  const recovery = query.get('type') === 'recovery' || fragment.get('type') === 'recovery';
  const hasAccess = query.has('access_token') || fragment.has('access_token');
  const hasRefresh = query.has('refresh_token') || fragment.has('refresh_token');
  return recovery || (hasAccess && hasRefresh);
}

/**
 * The address to replace the current one with, or null when nothing must change.
 * The result is a same-origin path: `/reset-password?...#...`.
 */
export function resetRedirectTarget(address: AddressParts): string | null {
  if (!isRecoveryAddress(address)) return null;
  const query = params(address.search, '?');
  const fragment = params(address.hash, '#');
  let moved = false;
  for (const key of MOVED_KEYS) {
    const value = fragment.get(key);
    if (value === null) continue;
    // A value already in the query is kept: the query is preserved as it came.
    if (!query.has(key)) query.set(key, value);
    fragment.delete(key);
    moved = true;
  }
  if (address.pathname === RESET_PATH && !moved) return null;
  const search = query.toString();
  const hash = moved ? fragment.toString() : address.hash.replace(/^#/, '');
  return `${RESET_PATH}${search ? `?${search}` : ''}${hash ? `#${hash}` : ''}`;
}

/** Applies the rule to the real address. Returns true when the address was rewritten. */
export function applyResetRedirect(win: Window = window): boolean {
  const target = resetRedirectTarget(win.location);
  if (target === null) return false;
  win.history.replaceState(win.history.state, '', target);
  return true;
}
