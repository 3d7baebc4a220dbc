/** localStorage keys and safe access (private mode and quota errors must never break the app). */
export const STORAGE_KEYS = {
  theme: 'moodmap.theme',
  moodFilter: 'moodmap.moodFilter',
  mapLocation: 'moodmap.mapLocation',
  /**
   * Not a token: an opaque id of this browser's current sign-in, present while the HttpOnly
   * refresh cookie may hold a session. It spares visitors a refresh call at every start, and
   * its changes tell other tabs about sign-ins and sign-outs (`storage` events).
   */
  session: 'moodmap.session',
  /** Where older versions kept the refresh token; removed at start-up. */
  legacyRefreshToken: 'moodmap.refreshToken',
  /** Display fields of the signed-in user, kept locally. */
  currentUser: 'moodmap.currentUser',
  /** The create page's 'Position approximative', per device. */
  approximateLocation: 'moodmap.approximateLocation',
} as const;

function storage(): Storage | null {
  try {
    return typeof window !== 'undefined' ? window.localStorage : null;
  } catch {
    return null;
  }
}

export function readJson(key: string): unknown {
  try {
    const raw = storage()?.getItem(key);
    return raw == null ? null : (JSON.parse(raw) as unknown);
  } catch {
    return null;
  }
}

export function writeJson(key: string, value: unknown): void {
  try {
    storage()?.setItem(key, JSON.stringify(value));
  } catch {
    // Storage full or disabled: the preference simply is not remembered.
  }
}

export function readString(key: string): string | null {
  try {
    return storage()?.getItem(key) ?? null;
  } catch {
    return null;
  }
}

export function writeString(key: string, value: string): void {
  try {
    storage()?.setItem(key, value);
  } catch {
    // Without storage the session lasts as long as the tab.
  }
}

export function removeKey(key: string): void {
  try {
    storage()?.removeItem(key);
  } catch {
    // Nothing stored, nothing to remove.
  }
}
