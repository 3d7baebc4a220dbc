/**
 * What a popup shows while its chunk (popups.ts) is on its way: a tap before the warm-up fetched
 * it (warm-up.ts) would otherwise open an empty popup frame. A post's popup gets its frame (the
 * mood's colour on top, marked busy like the card's skeleton), a group's the list's frame; both
 * hold the app's spinner, announced as 'Chargement...'. Part of the map's first load: it uses
 * nothing the map does not already carry.
 */
import { SHELL_MESSAGES } from '@moodmap/core';
import { Spinner } from '../../../ui/Button.tsx';
import { PopupFrame } from '../../posts/for-map.ts';
import type { MarkerDto } from '../../posts/for-map.ts';

function Loading() {
  return (
    <div
      role="status"
      aria-label={SHELL_MESSAGES.loading}
      data-testid="popup-loading"
      className="flex h-28 items-center justify-center text-brand-500"
    >
      <Spinner className="size-6" />
    </div>
  );
}

/** The fallback of a post's popup (`marker`) or of a group's list (no marker). */
export function PopupFallback({ marker }: { marker?: MarkerDto }) {
  if (marker) {
    return (
      <PopupFrame post={marker} skeleton>
        <Loading />
      </PopupFrame>
    );
  }
  return (
    <section
      className="w-[min(21rem,calc(100vw-5.5rem))] md:w-[21rem] overflow-hidden rounded-[20px] bg-white shadow-2xl ring-1 ring-black/5 dark:bg-ink-900 dark:ring-white/10"
      aria-busy="true"
    >
      <Loading />
    </section>
  );
}
