/**
 * The list view shows the posts the map holds (the same data, no second fetch), while it is
 * open: a copy of every marker on each change would cost a map of 10^5 posts for nothing.
 */
import { useEffect } from 'react';
import { useDrawnPosts } from './drawn-posts.ts';
import { useListStore } from '../list/list-store.ts';
import type { MarkerGroups } from './marker-groups.ts';

/** `version`: the groups changed. Answers whether the list is open, and what opens it. */
export function useListPosts(groups: MarkerGroups, version: number, offsetMs: number) {
  const publish = useDrawnPosts((s) => s.publish);
  const listOpen = useListStore((s) => s.open);
  const showList = useListStore((s) => s.show);
  useEffect(() => {
    void version;
    if (listOpen) publish([...groups.allMarkers()], offsetMs);
  }, [publish, groups, version, offsetMs, listOpen]);
  return { listOpen, showList };
}
