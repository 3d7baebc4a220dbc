/** The five moods (docs/product.md, Posts). One place for keys, labels and colours. */
export const MOODS = ['happy', 'angry', 'party', 'money', 'love'] as const;
export type Mood = (typeof MOODS)[number];

export interface MoodInfo {
  key: Mood;
  label: string;
  emoji: string;
  color: string;
}

export const MOOD_INFO: Record<Mood, MoodInfo> = {
  happy: { key: 'happy', label: 'Joyeux', emoji: '😊', color: '#7ED957' },
  angry: { key: 'angry', label: 'En colère', emoji: '😠', color: '#F07167' },
  party: { key: 'party', label: 'Fête', emoji: '🎉', color: '#0CC0DF' },
  money: { key: 'money', label: 'Argent', emoji: '💰', color: '#FFDE59' },
  love: { key: 'love', label: 'Amour', emoji: '❤️', color: '#ccaaff' },
};

export function isMood(value: unknown): value is Mood {
  return typeof value === 'string' && (MOODS as readonly string[]).includes(value);
}

/**
 * Toggles one mood in the filter. The last selected mood cannot be switched off,
 * so the result is never empty. Order follows MOODS.
 */
export function toggleMood(selected: readonly Mood[], mood: Mood): Mood[] {
  const set = new Set(selected.filter(isMood));
  if (set.has(mood)) {
    if (set.size === 1) return MOODS.filter((m) => set.has(m));
    set.delete(mood);
  } else {
    set.add(mood);
  }
  return MOODS.filter((m) => set.has(m));
}

/** Reads a persisted filter defensively: anything unusable becomes "all five". */
export function normaliseMoodSelection(value: unknown): Mood[] {
  if (!Array.isArray(value)) return [...MOODS];
  const valid = MOODS.filter((m) => value.includes(m));
  return valid.length > 0 ? valid : [...MOODS];
}
