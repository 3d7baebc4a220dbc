/** Whether the CGU modal is open (from the register form, the help dialog, the own profile or a notice). */
import { create } from 'zustand';

interface TermsUi {
  open: boolean;
  show: () => void;
  hide: () => void;
}

export const useTermsUi = create<TermsUi>()((set) => ({
  open: false,
  show: () => set({ open: true }),
  hide: () => set({ open: false }),
}));

export const showTerms = (): void => useTermsUi.getState().show();
