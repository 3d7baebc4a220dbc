import { create } from 'zustand';
import { MOODS, type Mood, normaliseMoodSelection, toggleMood } from '@moodmap/core';
import { STORAGE_KEYS, readJson, writeJson } from '../../lib/storage.ts';

/** The moods filter: all five by default, persisted locally, never empty. */
interface MoodFilterState {
  selected: Mood[];
  toggle: (mood: Mood) => void;
  selectAll: () => void;
  /** Re-reads the persisted choice (start-up, another tab). */
  reload: () => void;
}

export function loadMoodSelection(): Mood[] {
  return normaliseMoodSelection(readJson(STORAGE_KEYS.moodFilter));
}

export const useMoodFilterStore = create<MoodFilterState>()((set, get) => ({
  selected: loadMoodSelection(),
  toggle: (mood) => {
    const selected = toggleMood(get().selected, mood);
    writeJson(STORAGE_KEYS.moodFilter, selected);
    set({ selected });
  },
  selectAll: () => {
    const selected = [...MOODS];
    writeJson(STORAGE_KEYS.moodFilter, selected);
    set({ selected });
  },
  reload: () => set({ selected: loadMoodSelection() }),
}));
