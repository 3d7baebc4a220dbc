import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from './api.ts';

/**
 * Public runtime configuration served by `GET /api/config`: the basemap styles. (Its `isAdmin`
 * is not read: it is fetched once, before the session is restored; the signed-in user's own
 * `isAdmin`, from the session, decides 'Admin' vs 'Publier'.)
 */
export interface AppConfig {
  mapStyleUrl: string | null;
  mapStyleUrlDark: string | null;
  /** MAP_PMTILES: the archive the Protomaps basemap reads (root-relative when the server serves it). */
  mapPmtilesUrl?: string | null;
}

export const EMPTY_CONFIG: AppConfig = { mapStyleUrl: null, mapStyleUrlDark: null, mapPmtilesUrl: null };

/**
 * The answer read as core's clientConfigSchema has it (three nullable strings and a boolean),
 * without zod: the map waits for this answer, and core's schemas module (zod, every schema and
 * the whole catalogue) would otherwise be fetched and run before the map can even be created.
 * Anything else in the answer is no config (the embedded basemap).
 */
export function readConfig(raw: unknown): AppConfig | null {
  if (!raw || typeof raw !== 'object') return null;
  const answer: Record<string, unknown> = { ...raw };
  // A string or null (an empty string is no URL); undefined when the field is something else.
  const url = (value: unknown) => (value === null ? null : typeof value === 'string' ? value || null : undefined);
  const mapStyleUrl = url(answer.mapStyleUrl);
  const mapStyleUrlDark = url(answer.mapStyleUrlDark);
  // Optional in the schema: absent is none.
  const mapPmtilesUrl = answer.mapPmtilesUrl === undefined ? null : url(answer.mapPmtilesUrl);
  if (
    mapStyleUrl === undefined ||
    mapStyleUrlDark === undefined ||
    mapPmtilesUrl === undefined ||
    typeof answer.isAdmin !== 'boolean'
  )
    return null;
  return { mapStyleUrl, mapStyleUrlDark, mapPmtilesUrl };
}

export const configQuery = queryOptions({
  queryKey: ['config'],
  queryFn: async ({ signal }) => readConfig(await api<unknown>('/api/config', { signal })) ?? EMPTY_CONFIG,
  staleTime: Infinity,
  retry: 1,
});

/** The config, or the embedded defaults while it loads or when the server did not answer. */
export function useAppConfig(): { config: AppConfig; settled: boolean } {
  const query = useQuery(configQuery);
  return { config: query.data ?? EMPTY_CONFIG, settled: query.isSuccess || query.isError };
}
