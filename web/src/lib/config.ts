import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from './api.ts';

/**
 * Public runtime configuration served by `GET /api/config`: the basemap styles. (Its `isAdmin`
 * is not read: it is fetched once, before the session is restored; the signed-in user's own
 * `isAdmin`, from the session, decides 'Admin' vs 'Publier'.)
 */
const configSchema = z.object({
  mapStyleUrl: z.string().min(1).nullable().catch(null),
  mapStyleUrlDark: z.string().min(1).nullable().catch(null),
});
export type AppConfig = z.infer<typeof configSchema>;

export const EMPTY_CONFIG: AppConfig = { mapStyleUrl: null, mapStyleUrlDark: null };

export const configQuery = queryOptions({
  queryKey: ['config'],
  queryFn: async ({ signal }) => {
    const raw = await api<unknown>('/api/config', { signal });
    const parsed = configSchema.safeParse(raw);
    return parsed.success ? parsed.data : EMPTY_CONFIG;
  },
  staleTime: Infinity,
  retry: 1,
});

/** The config, or the embedded defaults while it loads or when the server did not answer. */
export function useAppConfig(): { config: AppConfig; settled: boolean } {
  const query = useQuery(configQuery);
  return { config: query.data ?? EMPTY_CONFIG, settled: query.isSuccess || query.isError };
}
