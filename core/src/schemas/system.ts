/** `GET /api/health` and `GET /api/config`: the server's state and what a browser needs first. */
import { z } from 'zod';

/** 200 when the database answers, 503 (same shape) when it does not. */
export const healthResponseSchema = z.object({
  status: z.enum(['ok', 'degraded']),
  database: z.object({ engine: z.string(), reachable: z.boolean() }),
});
export type HealthResponse = z.infer<typeof healthResponseSchema>;

/** Basemap styles and whether the caller is the admin account (the address is never sent). */
export const clientConfigSchema = z.object({
  mapStyleUrl: z.string().nullable(),
  mapStyleUrlDark: z.string().nullable(),
  /** MAP_PMTILES: the archive the browser reads (root-relative when the server serves it), or null. */
  mapPmtilesUrl: z.string().nullable().optional(),
  isAdmin: z.boolean(),
});
export type ClientConfig = z.infer<typeof clientConfigSchema>;

/**
 * Every refusal of the API (docs/product.md, Texts and times): a catalogue code and its French
 * text, plus a few details on some (a 409's `nextAllowedAt`).
 */
export const apiErrorSchema = z.object({ error: z.looseObject({ code: z.string(), message: z.string() }) });
export type ApiErrorBody = z.infer<typeof apiErrorSchema>;
