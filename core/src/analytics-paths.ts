/**
 * The web app's routes as analytics stores them: a template, never the page's own path, so no
 * member id (`/user/<id>`) or token is kept. Any other path counts in one bucket.
 */
export const ANALYTICS_PATHS = [
  '/',
  '/profile',
  '/user/:id',
  '/create',
  '/messages',
  '/admin',
  '/appeal',
  '/reset-password',
  '/pulse/retour',
  '/signalement-illicite',
  '/signalement-illicite/confirmer',
] as const;
export const OTHER_ANALYTICS_PATH = '/*';
export type AnalyticsPath = (typeof ANALYTICS_PATHS)[number] | typeof OTHER_ANALYTICS_PATH;

const MEMBER_PAGE = /^\/user\/[^/]+$/;

export function analyticsPathOf(pathname: string): AnalyticsPath {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  if (MEMBER_PAGE.test(path)) return '/user/:id';
  return ANALYTICS_PATHS.find((template) => template === path) ?? OTHER_ANALYTICS_PATH;
}
