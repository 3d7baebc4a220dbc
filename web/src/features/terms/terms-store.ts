/**
 * Whether the CGU modal is open (from the register form, the help dialog, the own profile or a
 * notice), and whether it asks the member to accept them (writes wait for it).
 */
import { create } from 'zustand';

interface TermsUi {
  open: boolean;
  mustAccept: boolean;
  show: () => void;
  requireAcceptance: () => void;
  hide: () => void;
}

export const useTermsUi = create<TermsUi>()((set) => ({
  open: false,
  mustAccept: false,
  show: () => set({ open: true }),
  requireAcceptance: () => set({ open: true, mustAccept: true }),
  hide: () => set({ open: false, mustAccept: false }),
}));

export const showTerms = (): void => useTermsUi.getState().show();
