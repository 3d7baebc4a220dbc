/** localStorage keys and safe access (private mode and quota errors must never break the app). */
export const STORAGE_KEYS = {
  theme: 'moodmap.theme',
  moodFilter: 'moodmap.moodFilter',
  mapLocation: 'moodmap.mapLocation',
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
