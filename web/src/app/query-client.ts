import { QueryClient } from '@tanstack/react-query';

/** Server state cache; per-query staleTimes come from core CACHE_TTL_MS. */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { retry: 1, refetchOnWindowFocus: false },
    },
  });
}
