/** The start and end of every test of the post popup and what opens from it. */
import { afterEach, beforeEach, vi } from 'vitest';
import { cleanup } from '@testing-library/react';
import { type SessionUser, useSessionStore } from '../../src/features/auth/session-store.ts';
import { useUiStore } from '../../src/lib/ui-store.ts';
import { useToastStore } from '../../src/ui/toasts/toast-store.ts';

/**
 * Each test starts with `viewer` signed in (null: a visitor), no sign-in dialog asked for and no
 * toast on screen, and ends unmounted, with fetch restored.
 */
export function popupViewerEachTest(viewer: SessionUser | null): void {
  beforeEach(() => {
    useSessionStore.setState({ status: 'ready', user: viewer });
    useUiStore.setState({ authMode: null });
    useToastStore.setState({ toasts: [] });
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });
}
