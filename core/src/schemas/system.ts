/** `GET /api/health` and `GET /api/config`: the server's state and what a browser needs first. */
import { z } from 'zod';

/** 200 when the database answers, 503 (same shape) when it does not. */
export const healthResponseSchema = z.object({
  status: z.enum(['ok', 'degraded']),
  database: z.object({ engine: z.string(), reachable: z.boolean() }),
});
export type HealthResponse = z.infer<typeof healthResponseSchema>;

/** Basemap styles and whether the caller is the admin account (the address is never sent, spec §6). */
export const clientConfigSchema = z.object({
  mapStyleUrl: z.string().nullable(),
  mapStyleUrlDark: z.string().nullable(),
  isAdmin: z.boolean(),
});
export type ClientConfig = z.infer<typeof clientConfigSchema>;
