export * from './moods.ts';
export * from './limits.ts';
export * from './messages.ts';
export * from './format.ts';
export * from './sanitize.ts';
export * from './schemas/auth.ts';
export * from './schemas/post.ts';
export * from './schemas/likes.ts';
export * from './schemas/comments.ts';
export * from './schemas/reports.ts';
export * from './schemas/search.ts';
export * from './schemas/interactions.ts';
export * from './schemas/profile.ts';
export * from './schemas/messages.ts';
// Issue 14 (account side): the system, geo and media contracts.
export * from './schemas/system.ts';
export * from './schemas/geo.ts';
export * from './schemas/media.ts';
