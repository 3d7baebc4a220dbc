/**
 * One polite live region, present from the start: screen readers announce what
 * changes inside a region they already know, not a region inserted with its text, so the new
 * message toast (mounted only while shown) speaks through this one. The same text twice in a row
 * is still announced: the region is emptied first.
 */
import { useEffect, useState } from 'react';
import { create } from 'zustand';

interface AnnouncerState {
  text: string;
  seq: number;
  announce: (text: string) => void;
}

export const useAnnouncer = create<AnnouncerState>()((set) => ({
  text: '',
  seq: 0,
  announce: (text) => set((s) => ({ text, seq: s.seq + 1 })),
}));

export const announce = (text: string): void => useAnnouncer.getState().announce(text);

export function LiveAnnouncer() {
  const text = useAnnouncer((s) => s.text);
  const seq = useAnnouncer((s) => s.seq);
  const [shown, setShown] = useState('');
  useEffect(() => {
    setShown('');
    const timer = setTimeout(() => setShown(text), 50);
    return () => clearTimeout(timer);
  }, [text, seq]);
  return (
    <div role="status" aria-live="polite" aria-atomic="true" className="sr-only" data-testid="live-announcer">
      {shown}
    </div>
  );
}
