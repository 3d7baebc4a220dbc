/** The product's constants and limits (docs/product.md, Limits), in one place for web and server. */

import { HOUR, MINUTE } from './durations.ts';

export const POST_LIFETIME_MS = 24 * HOUR;
export const POST_TEXT_MAX = 500;
export const POST_IMAGE_MAX_BYTES = 10 * 1024 * 1024;
export const POST_IMAGE_MAX_FILES = 1;
/** Text stored for a voice-only post; never displayed (docs/product.md, Posts). */
export const VOICE_ONLY_TEXT = 'Message vocal';
/** Stored text is cut to this length after sanitising (sanitize.ts). */
export const SANITISED_TEXT_MAX = 1000;
export const REPEATED_CHARS_WARNING = 11;
export const CAPITALS_WARNING_RATIO = 0.7;
export const CAPITALS_WARNING_MIN_LENGTH = 20;

export const PULSE_PRICE_EUR = 2.5;
export const PULSE_PRICE_LABEL = '2,50 €';

export const NICKNAME_MIN = 2;
export const NICKNAME_MAX = 50;
export const NICKNAME_COOLDOWN_DAYS = 30;
export const BIO_MAX = 500;
export const BIO_COUNTER_WARNING = 450;
export const REPORT_DETAILS_MAX = 500;
export const CONTACT_EMAIL_MAX = 254;
export const CONTACT_SUBJECT_MAX = 100;
export const CONTACT_MESSAGE_MAX = 1000;
export const PROFILE_PHOTO_MAX_BYTES = 5 * 1024 * 1024;
export const CHAT_IMAGE_MAX_BYTES = 5_242_880;
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 128;
export const EMAIL_MAX = 254;
export const FIRST_NAME_MIN = 2;
export const FIRST_NAME_MAX = 50;
export const LAST_NAME_MIN = 2;
export const LAST_NAME_MAX = 18;
export const CONTACT_QUOTE_CHARS = 50;

export const AUDIO_MAX_SECONDS = 60;
export const AUDIO_MAX_BYTES = 5 * 1024 * 1024;
export const AUDIO_MIN_BYTES = 1000;
export const AUDIO_SAMPLE_RATE = 44_100;
export const AUDIO_WARNING_RATIO = 0.8;
export const AUDIO_LOAD_TIMEOUT_MS = 5_000;

/** Rate limits: attempts per window, then a block (docs/product.md, Limits). */
export interface RateLimitRule {
  points: number;
  windowMs: number;
  blockMs: number;
  /** security_violation doubles its block on each repeat, up to 2^5. */
  escalateMaxExponent?: number;
}
export const RATE_LIMITS = {
  login: { points: 10, windowMs: 5 * MINUTE, blockMs: 5 * MINUTE },
  register: { points: 5, windowMs: 10 * MINUTE, blockMs: 10 * MINUTE },
  post_create: { points: 10, windowMs: HOUR, blockMs: 30 * MINUTE },
  message_send: { points: 100, windowMs: HOUR, blockMs: MINUTE },
  search: { points: 200, windowMs: HOUR, blockMs: MINUTE },
  file_upload: { points: 30, windowMs: HOUR, blockMs: 10 * MINUTE },
  security_violation: { points: 3, windowMs: 24 * HOUR, blockMs: HOUR, escalateMaxExponent: 5 },
} as const satisfies Record<string, RateLimitRule>;
export type RateLimitAction = keyof typeof RATE_LIMITS;

export const SEARCH_MIN = 2;
export const SEARCH_MAX = 100;
export const SEARCH_DEBOUNCE_MS = 500;
export const SEARCH_MAX_RESULTS = 10;
export const SEARCH_RESULT_CUT = 40;

/** Cache time-to-live per kind of data: they become TanStack Query staleTimes. */
export const CACHE_TTL_MS = {
  posts: 45_000,
  profiles: 10 * MINUTE,
  comments: 2 * MINUTE,
  conversations: MINUTE,
  messages: 30_000,
  search: 5 * MINUTE,
  map: HOUR,
} as const;
export const LAND_CHECK_CACHE_MS = 24 * HOUR;

/** The map's views, zooms and timeouts (docs/product.md, Map). */
export const MAP = {
  clusterRadiusM: 100,
  earthRadiusM: 6_371_000,
  minZoom: 2,
  maxZoom: 18,
  validZoomMin: 1,
  validZoomMax: 20,
  maxPitch: 60,
  maxLatitude: 85,
  maxLongitude: 180,
  mobileBreakpointPx: 768,
  mobileView: { latitude: -15, longitude: 47, zoom: 3.2 },
  desktopView: { latitude: 30, longitude: 20, zoom: 2.5 },
  focusZoom: 16,
  locateZoom: 15,
  flyToZoom: 12,
  pickerCentre: { latitude: 48.8566, longitude: 2.3522, zoom: 2 },
  pickerInitial: { latitude: -21.0667, longitude: 55.2167 },
  locateTimeoutMs: 10_000,
  locateMaxAgeMs: MINUTE,
  initialGeoTimeoutMs: 5_000,
  initialGeoMaxAgeMs: 10 * MINUTE,
  profileModalPosts: 6,
  profileModalThumbnails: 3,
  clusterColor: '#0CC0DF',
  /** Live marker changes reach the map in one source update per this wait (web: live-updates.ts). */
  liveBatchMs: 250,
} as const;

/** The web app's delays and intervals. */
export const TIMING = {
  pulseCheckoutPollMs: 1_000,
  pulseCheckoutTimeoutMs: 5 * MINUTE,
  pulsePostCloseWaitMs: 2_000,
  readMarkIntervalMs: 5_000,
  messageToastMs: 6_000,
  /** A message older than this is no longer announced by the toast. */
  messageToastRecentMs: MINUTE,
  toastExitMs: 300,
  messageToastCut: 60,
  scrollNearBottomPx: 100,
  resetRedirectMs: 3_000,
  contactDialogCloseMs: 2_000,
  postsRefreshMs: 5_000,
  geolocationErrorMs: 8_000,
  authProfileDelayMs: 100,
  authPostsDelayMs: 500,
  signOutRefetchMs: 1_000,
} as const;

/** Notification toasts: auto-dismiss per style, 0 means persistent. */
export const TOAST_DURATION_MS = { success: 4_000, error: 6_000, warning: 5_000, info: 4_000 } as const;
export type ToastType = keyof typeof TOAST_DURATION_MS;

export const TIERS = ['Gratuit', 'Premium', 'Plus', 'Multi', 'Pro'] as const;
export const STAFF_ROLES = ['super_admin', 'admin', 'moderator', 'user'] as const;
export type StaffRole = (typeof STAFF_ROLES)[number];
export const ADMIN_PANEL_ROLES: readonly StaffRole[] = ['super_admin', 'admin', 'moderator'];
export const ADMIN_ID_PREFIX = 8;
export const TERMS_NOTICE_DAYS = 30;
