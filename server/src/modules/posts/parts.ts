/** What the posts routes are given by the composition root (server/src/posts-parts.ts). */
import type { ViewportQuery } from '@moodmap/core';
import type { BlockRule } from '../blocks/rule.ts';
import type { ViewPlan } from './feed.ts';
import type { CreatePostDeps } from './service.ts';

export interface PostsParts extends Omit<CreatePostDeps, 'db'> {
  /** Who is hidden from whom: a viewer never sees the posts of someone they blocked or who blocked them. */
  blocks: BlockRule;
  /** The viewport plan of a map URL (plan-cache.ts). */
  planOf: (url: string, query: ViewportQuery) => ViewPlan;
}
