import { create } from 'zustand';

/** Modes of the auth modal (spec §4 "Auth modal modes"). */
export type AuthMode = 'login' | 'register' | 'forgot' | 'reset-sent' | 'register-sent';

interface UiState {
  authMode: AuthMode | null;
  helpOpen: boolean;
  openAuth: (mode?: AuthMode) => void;
  closeAuth: () => void;
  setHelpOpen: (open: boolean) => void;
}

/** Which non-route dialogs are open. Route modals live in the URL instead. */
export const useUiStore = create<UiState>()((set) => ({
  authMode: null,
  helpOpen: false,
  openAuth: (mode = 'login') => set({ authMode: mode }),
  closeAuth: () => set({ authMode: null }),
  setHelpOpen: (helpOpen) => set({ helpOpen }),
}));
