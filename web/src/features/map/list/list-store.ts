/**
 * The list view's state: open or not, the order, and the posts of one 100 m
 * group when it was opened from a cluster ('Voir en liste') instead of from the whole view.
 */
import { create } from 'zustand';
import type { ListSort } from '../markers/marker-names.ts';

interface ListState {
  open: boolean;
  /** Ids of a cluster's posts; null: every post in the map's view. */
  clusterIds: readonly string[] | null;
  sort: ListSort;
  /** Bumped when something asks the list to take the focus (opened from the map's markers). */
  focusRequest: number;
  show: (options?: { clusterIds?: readonly string[] | null; focus?: boolean }) => void;
  hide: () => void;
  setSort: (sort: ListSort) => void;
}

export const useListStore = create<ListState>()((set) => ({
  open: false,
  clusterIds: null,
  sort: 'distance',
  focusRequest: 0,
  show: ({ clusterIds = null, focus = false } = {}) =>
    set((s) => ({ open: true, clusterIds, focusRequest: focus ? s.focusRequest + 1 : s.focusRequest })),
  hide: () => set({ open: false, clusterIds: null }),
  setSort: (sort) => set({ sort }),
}));
