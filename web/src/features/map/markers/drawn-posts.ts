/**
 * The posts the map holds right now (its viewport answer, live changes included), published by
 * use-list-posts.ts for the list view: the list shows the map's own data, never a
 * second fetch, and the map's clock offset so both say the same 'il y a 5 minutes'.
 */
import { create } from 'zustand';
import type { MarkerDto } from '../../posts/for-map.ts';

interface DrawnPosts {
  markers: readonly MarkerDto[];
  offsetMs: number;
  publish: (markers: readonly MarkerDto[], offsetMs: number) => void;
}

export const useDrawnPosts = create<DrawnPosts>()((set) => ({
  markers: [],
  offsetMs: 0,
  publish: (markers, offsetMs) => set({ markers, offsetMs }),
}));
