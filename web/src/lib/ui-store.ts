import { create } from 'zustand';

/**
 * Modes of the auth modal: login, register, forgot password,
 * reset-email-sent ('reset-sent') and register-confirmation ('register-sent', 'Vérifiez votre email').
 */
export type AuthMode = 'login' | 'register' | 'forgot' | 'reset-sent' | 'register-sent';

interface UiState {
  authMode: AuthMode | null;
  /** The address the auth modal carries between modes (typed at login, registered, reset). */
  authEmail: string;
  helpOpen: boolean;
  /** The user whose profile modal is open, from a marker or a comment author. */
  profileModalUserId: string | null;
  openAuth: (mode?: AuthMode, email?: string) => void;
  closeAuth: () => void;
  setHelpOpen: (open: boolean) => void;
  openProfileModal: (userId: string) => void;
  closeProfileModal: () => void;
}

/** Which non-route dialogs are open. Route modals live in the URL instead. */
export const useUiStore = create<UiState>()((set) => ({
  authMode: null,
  authEmail: '',
  helpOpen: false,
  profileModalUserId: null,
  openAuth: (mode = 'login', email) => set((s) => ({ authMode: mode, authEmail: email ?? s.authEmail })),
  closeAuth: () => set({ authMode: null, authEmail: '' }),
  setHelpOpen: (helpOpen) => set({ helpOpen }),
  openProfileModal: (userId) => set({ profileModalUserId: userId }),
  closeProfileModal: () => set({ profileModalUserId: null }),
}));

/** Opens the profile modal from anywhere (popup author, comment author), outside React too. */
export const openProfileModal = (userId: string): void => useUiStore.getState().openProfileModal(userId);
export const closeProfileModal = (): void => useUiStore.getState().closeProfileModal();
