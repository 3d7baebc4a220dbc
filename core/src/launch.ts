/**
 * Launch rules: terms-of-use versions, analytics event names, role names in French and the
 * cost monitor's caps (docs/product.md, Roles and staff and Rights and terms).
 */
import { DAY, HOUR } from './durations.ts';
import { TERMS_NOTICE_DAYS, type StaffRole } from './limits.ts';

/** Role names as the panel shows them ('Rôle actuel: {role}'). */
export const ROLE_LABELS: Record<StaffRole, string> = {
  super_admin: 'Super administrateur',
  admin: 'Administrateur',
  moderator: 'Modérateur',
  user: 'Membre',
};

/** Action names inside the rate-limit sentences ('Trop de tentatives pour {action}'), in French. */
export const RATE_LIMIT_ACTION_LABELS: Partial<Record<string, string>> = {
  login: 'connexion',
  login_account: 'connexion',
  register: 'inscription',
  register_emergency: 'inscription',
  post_create: 'publication',
  message_send: 'envoi de messages',
  search: 'recherche',
  file_upload: 'envoi de fichiers',
  security_violation: 'sécurité',
  password_reset: 'réinitialisation du mot de passe',
  comment_write: 'commentaire',
  pulse_checkout: 'paiement',
  analytics_event: 'statistiques',
  post_report: 'signalement',
  post_report_ip: 'signalement',
};
export const rateLimitActionLabel = (action: string): string =>
  Object.hasOwn(RATE_LIMIT_ACTION_LABELS, action) ? (RATE_LIMIT_ACTION_LABELS[action] ?? action) : action;

/** A role's French name; an unknown role reads as itself. */
export function roleLabel(role: string): string {
  const labels: Partial<Record<string, string>> = ROLE_LABELS;
  return Object.hasOwn(labels, role) ? (labels[role] ?? role) : role;
}

/**
 * Every version of the terms, oldest first, each named by the day it applies. A version is
 * announced TERMS_NOTICE_DAYS before its `effectiveAt` and must be accepted once it applies.
 * Each version has its own text: the web app's terms-text.ts tags the paragraphs a version added
 * or removed, so a member reads and accepts the text in force, and can read the next one ahead.
 */
export const TERMS_VERSIONS = [
  { version: '2026-11-24', effectiveAt: '2026-11-24T00:00:00.000Z' },
  // Account deletion and what it keeps, the data download, notices of illegal content from anyone, message requests.
  { version: '2026-12-28', effectiveAt: '2026-12-28T00:00:00.000Z' },
] as const;
export type TermsVersion = { version: string; effectiveAt: string };

/** The version in force at `now` and the next one when it is within its notice period. */
export function termsAt(
  now: Date,
  versions: readonly TermsVersion[] = TERMS_VERSIONS,
): { current: TermsVersion; upcoming: TermsVersion | null } {
  const t = now.getTime();
  const applied = versions.filter((v) => Date.parse(v.effectiveAt) <= t);
  const current = applied.at(-1) ?? versions[0];
  const next = versions.find((v) => Date.parse(v.effectiveAt) > t) ?? null;
  const announced = next && Date.parse(next.effectiveAt) - TERMS_NOTICE_DAYS * DAY <= t ? next : null;
  return { current, upcoming: announced };
}

/**
 * The seven analytics events. The web app sends only the two the server cannot see; the others
 * are counted by the server where the account, session, post, message or payment is made, so
 * no client can claim them.
 */
export const CLIENT_ANALYTICS_EVENTS = ['search', 'map_interaction'] as const;
export const SERVER_ANALYTICS_EVENTS = [
  'signup',
  'login',
  'post_created',
  'message_sent',
  'premium_conversion',
] as const;
export const ANALYTICS_EVENTS = [
  'signup',
  'login',
  'post_created',
  'message_sent',
  'search',
  'map_interaction',
  'premium_conversion',
] as const;
export type AnalyticsEventName = (typeof ANALYTICS_EVENTS)[number];
export type ClientAnalyticsEventName = (typeof CLIENT_ANALYTICS_EVENTS)[number];
export type ServerAnalyticsEventName = (typeof SERVER_ANALYTICS_EVENTS)[number];
export const ANALYTICS_LABELS: Record<AnalyticsEventName, string> = {
  signup: 'Inscriptions',
  login: 'Connexions',
  post_created: 'Publications',
  message_sent: 'Messages envoyés',
  premium_conversion: 'Conversions premium',
  search: 'Recherches',
  map_interaction: 'Interactions carte',
};

/** The cost monitor's daily usage caps (docs/product.md, Roles and staff). */
export const COST_METRICS = ['geocoding', 'map_loads', 'backend_requests', 'storage_operations'] as const;
export type CostMetric = (typeof COST_METRICS)[number];
export const COST_CAPS: Record<CostMetric, number> = {
  geocoding: 2000,
  map_loads: 50_000,
  backend_requests: 100_000,
  storage_operations: 10_000,
};
export const COST_LABELS: Record<CostMetric, string> = {
  geocoding: 'Géocodage',
  map_loads: 'Chargements de carte',
  backend_requests: 'Requêtes serveur',
  storage_operations: 'Opérations de stockage',
};
/** A geocoding call counts 0.5 against its cap. */
export const GEOCODING_CALL_UNITS = 0.5;
export const COST_WARN_RATIO = 1;
export const COST_THROTTLE_RATIO = 1.2;
export const COST_EMERGENCY_RATIO = 1.5;
export const EMERGENCY_DURATION_MS = 4 * HOUR;
/** Cache lifetimes are multiplied by this in emergency mode, and by the throttle's while throttled. */
export const EMERGENCY_CACHE_MULTIPLIER = 10;
export const THROTTLE_CACHE_MULTIPLIER = 3;
export type CostLevel = 'normal' | 'warn' | 'throttle' | 'emergency';

/**
 * The statistics tab's texts: kept out of MESSAGES (which every page loads) since only the
 * admin panel's lazy chunk reads them.
 */
export const STATS_TEXTS = {
  stats_range: '{days} jours',
  stats_export_csv: 'Exporter en CSV',
  stats_events_chart: 'Événements par jour',
  stats_audience_chart: 'Visiteurs, messages et revenus par jour',
  stats_visitors: 'Visiteurs uniques',
  stats_revenue: 'Revenus (EUR)',
  stats_messages: 'Messages par jour',
  stats_posts_live: 'Publications en ligne',
  stats_day: 'Jour',
  stats_total: 'Total',
  stats_costs_title: 'Coûts du jour',
  stats_estimated_cost: 'Coût quotidien estimé',
  stats_cost_level: 'Niveau : {level}',
  stats_level_normal: 'normal',
  stats_level_warn: 'plafond dépassé',
  stats_level_throttle: 'limitation',
  stats_level_emergency: "mode d'urgence",
  stats_emergency_on: "Activer le mode d'urgence",
  stats_emergency_off: "Désactiver le mode d'urgence",
  stats_emergency_until: "Mode d'urgence actif jusqu'à {time}",
  stats_emergency_by_monitor: 'Déclenché automatiquement le {time} : {reason}',
  stats_emergency_by_staff: 'Déclenché par {name} le {time}',
} as const;

/** A statistics text with its `{placeholders}` filled. */
export function statsText(key: keyof typeof STATS_TEXTS, params: Record<string, string | number> = {}): string {
  return STATS_TEXTS[key].replace(/\{(\w+)\}/g, (_, name: string) => String(params[name] ?? `{${name}}`));
}
