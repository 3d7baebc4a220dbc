/** What the popup shows: a post (maybe picked from a group's list) or a 100 m group's list. */
import { type Dispatch, type SetStateAction, useEffect, useMemo, useState } from 'react';
import type { MarkerDto } from '../../posts/for-map.ts';
import type { MarkerGroups } from './marker-groups.ts';

/** `group` on a post: the list it was picked from, which its popup goes back to. */
export type Selection =
  | { kind: 'post'; id: string; group?: string[] }
  | { kind: 'group'; ids: string[]; latitude: number; longitude: number };

export type SetSelection = Dispatch<SetStateAction<Selection | null>>;

export interface Selected {
  selection: Selection | null;
  setSelection: SetSelection;
  /** The post whose card shows. */
  selectedMarker: MarkerDto | undefined;
  /** The posts of the list shown, or of the list a post's card goes back to. */
  groupMarkers: MarkerDto[];
  /** What the popup showed was deleted or expired. */
  popupGone: boolean;
}

/** `version`: the groups changed, what the popup shows is read again. */
export function useSelection(groups: MarkerGroups, version: number): Selected {
  const [selection, setSelection] = useState<Selection | null>(null);
  const selectedMarker = selection?.kind === 'post' ? groups.marker(selection.id) : undefined;
  const groupMarkers = useMemo(() => {
    void version;
    const ids = selection?.kind === 'group' ? selection.ids : selection?.kind === 'post' ? selection.group : undefined;
    return ids ? ids.map((id) => groups.marker(id)).filter((m): m is MarkerDto => m !== undefined) : [];
  }, [selection, groups, version]);
  const popupGone = selection !== null && (selection.kind === 'post' ? !selectedMarker : groupMarkers.length === 0);
  return { selection, setSelection, selectedMarker, groupMarkers, popupGone };
}

/** Escape closes the popup, and so does the deletion or expiry of what it shows. */
export function usePopupClosing({ selection, setSelection, popupGone }: Selected): void {
  // Unless a dialog above the map takes the Escape.
  useEffect(() => {
    if (!selection) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape' && !document.querySelector('[aria-modal="true"]')) setSelection(null);
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [selection, setSelection]);
  // An emptied group's list too.
  useEffect(() => {
    if (popupGone) setSelection(null);
  }, [popupGone, setSelection]);
}
