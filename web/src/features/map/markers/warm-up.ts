/**
 * What the map's later interactions need, fetched once the map is drawn with its markers and the
 * page is idle, so that it is off the first load and yet ready for the first tap:
 * - the popups' code (popups.ts) and the card's body (posts/post-card-chunk.ts);
 * - core's schemas (zod, every answer's schema): the config and viewport answers are read without
 *   them, but a card, a comment or a form parses its answer with them; without this the first
 *   tap on a marker would wait for them after its card's answer.
 */
import type { Map as MapLibreMap } from 'maplibre-gl';
import { loadSchemas } from '../../../lib/schemas.ts';
import { loadPostCard } from '../../posts/for-map.ts';

/** A map that never becomes idle after its markers came still gets them after this long. */
const WARM_UP_FALLBACK_MS = 5_000;
/** requestIdleCallback's own deadline: a page never idle still gets them. */
const IDLE_TIMEOUT_MS = 2_000;

/** The popups' chunk (MarkerPopup.tsx renders them from it). */
export const loadPopups = () => import('./popups.ts');

const WARM_UPS: ReadonlyArray<() => Promise<unknown>> = [loadPopups, loadSchemas, loadPostCard];

let started = false;

function whenPageIdle(run: () => void): void {
  if (typeof requestIdleCallback === 'function') requestIdleCallback(run, { timeout: IDLE_TIMEOUT_MS });
  else setTimeout(run, 0);
}

/**
 * Once `map` is next idle (its markers drawn: the caller calls this after the first viewport
 * answer was applied), then when the page is idle, the warm-ups start; once per page. Returns
 * what cancels a warm-up not started yet.
 */
export function warmUpAfterMarkers(map: Pick<MapLibreMap, 'once' | 'off'>, loads = WARM_UPS): () => void {
  if (started) return () => undefined;
  const run = () => {
    if (started) return;
    started = true;
    map.off('idle', run);
    clearTimeout(timer);
    whenPageIdle(() => {
      for (const load of loads) void load().catch(() => undefined);
    });
  };
  const timer = setTimeout(run, WARM_UP_FALLBACK_MS);
  map.once('idle', run);
  return () => {
    map.off('idle', run);
    clearTimeout(timer);
  };
}

/** Test hook. */
export function resetWarmUpForTests(): void {
  started = false;
}
