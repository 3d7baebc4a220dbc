import { describe, expect, it } from 'vitest';
import { MOODS, MOOD_INFO, normaliseMoodSelection, t, toggleMood } from '../src/index.ts';

describe('mood filter', () => {
  it('switches a mood off and on, keeping the canonical order', () => {
    const off = toggleMood(MOODS, 'party');
    expect(off).toEqual(['happy', 'angry', 'money', 'love']);
    expect(toggleMood(off, 'party')).toEqual([...MOODS]);
  });
  it('never switches off the last selected mood', () => {
    expect(toggleMood(['love'], 'love')).toEqual(['love']);
  });
  it('reads a corrupt persisted value as all five', () => {
    expect(normaliseMoodSelection('nope')).toEqual([...MOODS]);
    expect(normaliseMoodSelection(['bogus'])).toEqual([...MOODS]);
    expect(normaliseMoodSelection(['love', 'bogus'])).toEqual(['love']);
  });
  it('has the documented mood colours', () => {
    expect(MOOD_INFO.happy.color).toBe('#7ED957');
    expect(MOOD_INFO.love.color).toBe('#ccaaff');
  });
});

describe('catalogue', () => {
  it('fills placeholders', () => {
    expect(t('rate_too_many', { action: 'login', minutes: 5 })).toBe(
      'Trop de tentatives pour login. Bloqué pour 5 minutes.',
    );
    expect(t('search_no_result', { query: 'chat' })).toBe('Aucune publication trouvée pour "chat"');
  });
});
