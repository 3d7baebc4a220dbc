/**
 * Viewport plans kept by URL. A URL always plans the same view (planView is pure) and the app's
 * URLs repeat (its bounds are snapped): a bounded map, emptied when full, saves the planning.
 */
import type { ViewportQuery } from '@moodmap/core';
import { planView, toViewport, type ViewPlan } from './feed.ts';

/** Plans kept (a plan is a few hundred bytes). */
const PLANS_MAX = 8192;

export function createPlanCache(): (url: string, query: ViewportQuery) => ViewPlan {
  const plans = new Map<string, ViewPlan>();
  return (url, query) => {
    let plan = plans.get(url);
    if (!plan) {
      plan = planView(toViewport(query));
      if (plans.size >= PLANS_MAX) plans.clear();
      plans.set(url, plan);
    }
    return plan;
  };
}
