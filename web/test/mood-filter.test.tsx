// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { MOODS, MOOD_INFO } from '@moodmap/core';
import { MoodFilter } from '../src/features/moods/MoodFilter.tsx';
import { useMoodFilterStore } from '../src/features/moods/mood-filter-store.ts';
import { STORAGE_KEYS } from '../src/lib/storage.ts';

const option = (mood: (typeof MOODS)[number]) =>
  screen.getByRole('checkbox', { name: `${MOOD_INFO[mood].emoji} ${MOOD_INFO[mood].label}` }) as HTMLInputElement;
const stored = () => JSON.parse(localStorage.getItem(STORAGE_KEYS.moodFilter) ?? 'null') as unknown;

function openFilter() {
  render(<MoodFilter />);
  fireEvent.click(screen.getByRole('button', { name: 'Humeurs' }));
}

describe('mood filter', () => {
  beforeEach(() => {
    localStorage.clear();
    useMoodFilterStore.getState().reload();
  });
  afterEach(cleanup);

  it('shows the five moods, all selected by default', () => {
    openFilter();
    for (const mood of MOODS) expect(option(mood).checked).toBe(true);
  });

  it('persists the choice locally and restores it', () => {
    openFilter();
    fireEvent.click(option('angry'));
    fireEvent.click(option('money'));
    expect(option('angry').checked).toBe(false);
    expect(stored()).toEqual(['happy', 'party', 'love']);

    cleanup();
    useMoodFilterStore.setState({ selected: [...MOODS] });
    useMoodFilterStore.getState().reload();
    openFilter();
    expect(option('angry').checked).toBe(false);
    expect(option('money').checked).toBe(false);
    expect(option('happy').checked).toBe(true);
  });

  it('never lets the last selected mood be switched off', () => {
    openFilter();
    for (const mood of ['happy', 'angry', 'party', 'money'] as const) fireEvent.click(option(mood));
    expect(option('love').checked).toBe(true);
    fireEvent.click(option('love'));
    expect(option('love').checked).toBe(true);
    expect(stored()).toEqual(['love']);
    fireEvent.click(option('party'));
    fireEvent.click(option('love'));
    expect(option('love').checked).toBe(false);
    expect(stored()).toEqual(['party']);
  });

  it('"Toutes les humeurs" selects all five again', () => {
    openFilter();
    fireEvent.click(option('happy'));
    fireEvent.click(screen.getByRole('button', { name: 'Toutes les humeurs' }));
    for (const mood of MOODS) expect(option(mood).checked).toBe(true);
    expect(stored()).toEqual([...MOODS]);
  });

  it('falls back to all five when the stored value is unusable', () => {
    for (const bad of ['not json', '[]', '["sad"]', '{"happy":true}']) {
      localStorage.setItem(STORAGE_KEYS.moodFilter, bad);
      useMoodFilterStore.getState().reload();
      expect(useMoodFilterStore.getState().selected).toEqual([...MOODS]);
    }
    localStorage.setItem(STORAGE_KEYS.moodFilter, '["love","sad","happy"]');
    useMoodFilterStore.getState().reload();
    expect(useMoodFilterStore.getState().selected).toEqual(['happy', 'love']);
  });

  it('closes with Escape', () => {
    openFilter();
    expect(screen.getByRole('group', { name: 'Humeurs' })).toBeTruthy();
    fireEvent.keyDown(document, { key: 'Escape' });
    expect(screen.queryByRole('group', { name: 'Humeurs' })).toBeNull();
  });
});
