/**
 * Whether the CGU modal is open (from the register form, the help dialog, the own profile or a
 * notice), which version it shows (the one in force, or the next one during its notice), and
 * whether it asks the member to accept them (writes wait for it).
 */
import { create } from 'zustand';

export type TermsView = 'current' | 'upcoming';

interface TermsUi {
  open: boolean;
  mustAccept: boolean;
  view: TermsView;
  show: (view?: TermsView) => void;
  setView: (view: TermsView) => void;
  requireAcceptance: () => void;
  hide: () => void;
}

export const useTermsUi = create<TermsUi>()((set) => ({
  open: false,
  mustAccept: false,
  view: 'current',
  show: (view = 'current') => set({ open: true, view }),
  setView: (view) => set({ view }),
  // The version to accept is the one in force.
  requireAcceptance: () => set({ open: true, mustAccept: true, view: 'current' }),
  hide: () => set({ open: false, mustAccept: false }),
}));

export const showTerms = (): void => useTermsUi.getState().show();
export const showUpcomingTerms = (): void => useTermsUi.getState().show('upcoming');
