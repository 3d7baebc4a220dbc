export * from './moods.ts';
export * from './limits.ts';
export * from './messages.ts';
export * from './format.ts';
export * from './sanitize.ts';
export * from './schemas/auth.ts';
export * from './schemas/post.ts';
export * from './schemas/interactions.ts';
