import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from './api.ts';
import { loadSchemas } from './schemas.ts';

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

export const configQuery = queryOptions({
  queryKey: ['config'],
  queryFn: async ({ signal }) => {
    const [raw, { clientConfigSchema }] = await Promise.all([api<unknown>('/api/config', { signal }), loadSchemas()]);
    const parsed = clientConfigSchema.safeParse(raw);
    if (!parsed.success) return EMPTY_CONFIG;
    // An empty URL is no style (the embedded basemap).
    return {
      mapStyleUrl: parsed.data.mapStyleUrl || null,
      mapStyleUrlDark: parsed.data.mapStyleUrlDark || null,
      mapPmtilesUrl: parsed.data.mapPmtilesUrl || null,
    };
  },
  staleTime: Infinity,
  retry: 1,
});

/** The config, or the embedded defaults while it loads or when the server did not answer. */
export function useAppConfig(): { config: AppConfig; settled: boolean } {
  const query = useQuery(configQuery);
  return { config: query.data ?? EMPTY_CONFIG, settled: query.isSuccess || query.isError };
}
