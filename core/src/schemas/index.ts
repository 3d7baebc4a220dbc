/**
 * Every zod schema of the API contract: `@moodmap/core/schemas`. The web app imports this
 * entry only dynamically (web/src/lib/schemas.ts), so zod stays out of its first load; types
 * inferred from the schemas are imported with `import type` and cost nothing at run time.
 */
export * from './auth.ts';
export * from './post.ts';
export * from './likes.ts';
export * from './comments.ts';
export * from './reports.ts';
export * from './search.ts';
export * from './interactions.ts';
export * from './profile.ts';
export * from './messages.ts';
export * from './realtime.ts';
export { hasLoneSurrogate } from './text.ts';
// The system, geo and media contracts.
export * from './system.ts';
export * from './geo.ts';
export * from './media.ts';
export * from './payments.ts';
// The admin panel and moderation.
export * from './admin.ts';
export * from './moderation.ts';
export * from './dsa-notices.ts';
// Terms, analytics and statistics, costs and emergency mode.
export * from './terms.ts';
export * from './analytics.ts';
export * from './costs.ts';
// Web Push.
export * from './push.ts';
// Access and portability of a member's data.
export * from './data-export.ts';
// Erasure of a member's account.
export * from './account-deletion.ts';
