/**
 * 'Position approximative' is off until the person turns it on, then stays as they
 * left it on this device: someone who posts from home should not have to remember it each time.
 */
import { useState } from 'react';
import { STORAGE_KEYS, readJson, writeJson } from '../../../lib/storage.ts';

export function readApproximatePreference(): boolean {
  return readJson(STORAGE_KEYS.approximateLocation) === true;
}

/** The remembered preference and its setter (which remembers the new value). */
export function useApproximatePreference(): [boolean, (on: boolean) => void] {
  const [on, setOn] = useState(readApproximatePreference);
  const set = (value: boolean) => {
    setOn(value);
    writeJson(STORAGE_KEYS.approximateLocation, value);
  };
  return [on, set];
}
