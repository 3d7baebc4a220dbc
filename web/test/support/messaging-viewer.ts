/** The start and end of every test of /messages and the message realtime. */
import { afterEach, beforeEach, vi } from 'vitest';
import { cleanup } from '@testing-library/react';
import { useSessionStore } from '../../src/features/auth/session-store.ts';
import { useMessagesSelection } from '../../src/features/messages/messages-store.ts';
import { useUiStore } from '../../src/lib/ui-store.ts';
import { useToastStore } from '../../src/ui/toasts/toast-store.ts';

/**
 * Each test starts signed in as the user `me`, with no dialog, toast or conversation chosen, and
 * ends unmounted, with real timers and fetch and spies restored.
 */
export function messagingViewerEachTest(me: string): void {
  beforeEach(() => {
    useSessionStore.setState({ status: 'ready', user: { id: me, email: 'me@exemple.fr', nickname: 'Moi' } });
    useUiStore.setState({ authMode: null, profileModalUserId: null });
    useToastStore.setState({ toasts: [] });
    useMessagesSelection.getState().clear();
  });
  afterEach(() => {
    cleanup();
    vi.useRealTimers();
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });
}
