/**
 * Negative controls (CLUSTER_CONTROL, run by hand, never by `npm test`): a deployment that lacks
 * what the goals depend on, to show the tier fails on it rather than passing whatever happens.
 * - `secrets`: the instances share no signing key or VAPID pair. They run in development mode,
 *   which lets them start without JWT_SECRET and VAPID keys (production refuses) and makes each
 *   generate its own into its DATA_DIR: a session opened on one instance is refused by the others.
 * - `sweepers`: every instance leads the periodic jobs. app2 and app3 find, first on their
 *   search_path, a `pg_try_advisory_lock`/`pg_advisory_lock` of this tool's that locks a key of
 *   their own session instead of the shared one, so nobody waits: each leads, as every instance
 *   did before the jobs had a leader. The data stay shared (the tables are found in `public`),
 *   and the server's code is the same.
 */
import { APP_HOSTS, type AppHost } from './topology.ts';

export const CONTROLS = ['secrets', 'sweepers'] as const;
export type Control = (typeof CONTROLS)[number];

/** The control asked for, null for none; throws on an unknown name. */
export function controlOf(value: string | undefined): Control | null {
  if (!value) return null;
  const found = CONTROLS.find((c) => c === value);
  if (!found) throw new Error(`CLUSTER_CONTROL inconnu : « ${value} » (attendu : ${CONTROLS.join(', ')})`);
  return found;
}

export const CONTROL_TEXT: Record<Control, string> = {
  secrets: 'contrôle « secrets » : chaque instance a sa propre clé de session et sa paire VAPID',
  sweepers: 'contrôle « sweepers » : chaque instance mène les tâches périodiques',
};

const SHADOW_SCHEMA = 'cluster_control';

/** The SQL that gives the `sweepers` control its locks, run on the fresh database. */
export const SHADOW_LOCKS_SQL = `
  create schema ${SHADOW_SCHEMA};
  create function ${SHADOW_SCHEMA}.pg_try_advisory_lock(bigint) returns boolean language sql
    as 'select pg_catalog.pg_try_advisory_lock($1 + pg_backend_pid())';
  create function ${SHADOW_SCHEMA}.pg_advisory_lock(bigint) returns void language sql
    as 'select pg_catalog.pg_advisory_lock($1 + pg_backend_pid())';`;

/** The instances that take the shadowing locks: all but the first, which migrates with the real search_path. */
const shadowed = (host: AppHost) => host !== APP_HOSTS[0];

/** An instance's environment under `control`. */
export function controlledEnv(env: NodeJS.ProcessEnv, host: AppHost, control: Control | null): NodeJS.ProcessEnv {
  if (control === 'secrets') {
    return {
      ...env,
      NODE_ENV: 'development',
      JWT_SECRET: undefined,
      VAPID_PUBLIC_KEY: undefined,
      VAPID_PRIVATE_KEY: undefined,
    };
  }
  if (control === 'sweepers' && shadowed(host)) {
    const options = encodeURIComponent(`-c search_path=${SHADOW_SCHEMA},pg_catalog,public`);
    return { ...env, DATABASE_URL: `${env.DATABASE_URL}?options=${options}` };
  }
  return env;
}
