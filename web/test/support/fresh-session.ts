/** The start and end of every test that signs in through the real session store. */
import { afterEach, beforeEach, vi } from 'vitest';
import { cleanup } from '@testing-library/react';
import { resetSessionForTests, useSessionStore } from '../../src/features/auth/session-store.ts';

/**
 * Each test starts from empty storage and a session store past start-up with nobody signed in
 * (a test signs in with `applySession`), and ends unmounted, with fetch and the store reset.
 */
export function freshSessionEachTest(): void {
  beforeEach(() => {
    localStorage.clear();
    resetSessionForTests();
    useSessionStore.setState({ status: 'ready' });
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    resetSessionForTests();
  });
}
