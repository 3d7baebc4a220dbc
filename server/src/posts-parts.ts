/**
 * The posts feature's parts, assembled at the composition root with the app: where a new post may
 * stand (the offline land check, then the optional geocoder under the cost monitor), where an
 * approximate post shows, the block rule, and the viewport plans.
 */
import { GEOCODING_CALL_UNITS } from '@moodmap/core';
import { createLandDecision, createMapboxGeocoder, withVerdictCache } from './adapters/geocoder/index.ts';
import type { AppContext } from './context.ts';
import { blockRule } from './modules/blocks/rule.ts';
import { createApproximator } from './modules/posts/approximate.ts';
import type { PostsParts } from './modules/posts/parts.ts';
import { createPlanCache } from './modules/posts/plan-cache.ts';

export function assemblePostsParts(ctx: AppContext): PostsParts {
  return {
    isOnLand: landDecision(ctx),
    approximate: createApproximator(ctx.geo),
    blocks: blockRule(ctx.database.db, ctx.bus),
    planOf: createPlanCache(),
  };
}

/**
 * Each call that reaches the geocoder is counted (cache hits are free); while the cost monitor
 * throttles, it is skipped and the offline land check decides alone.
 */
function landDecision(ctx: AppContext): PostsParts['isOnLand'] {
  const land = ctx.geo.land;
  const geocoder = ctx.config.geocoderMapboxToken ? createMapboxGeocoder(ctx.config.geocoderMapboxToken) : null;
  const verdict = geocoder
    ? withVerdictCache({
        reverse: (lat, lon) => {
          ctx.costs.count('geocoding', GEOCODING_CALL_UNITS);
          return geocoder.reverse(lat, lon);
        },
      })
    : undefined;
  return createLandDecision(
    (lat, lon) => land.isOnLand(lat, lon),
    verdict && (async (lat, lon) => (ctx.costs.geocoderAllowed() ? verdict(lat, lon) : 'unknown')),
  );
}
