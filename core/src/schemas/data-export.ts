/**
 * 'Télécharger mes données': the state of a member's data archive (GET /api/account/export).
 * `none` before any request; `expired` once its 7 days are over and its file is gone.
 */
import { z } from 'zod';

/** How long a ready archive can be downloaded. */
export const DATA_EXPORT_TTL_MS = 7 * 24 * 3_600_000;
/** One request per member within this window. */
export const DATA_EXPORT_EVERY_MS = 24 * 3_600_000;

export const dataExportStateSchema = z.enum(['none', 'pending', 'ready', 'failed', 'expired']);

export const dataExportStatusSchema = z.object({
  status: dataExportStateSchema,
  requestedAt: z.string().nullable(),
  readyAt: z.string().nullable(),
  expiresAt: z.string().nullable(),
  sizeBytes: z.number().int().nullable(),
  /** When a new request will be accepted; null when it would be now. */
  nextRequestAt: z.string().nullable(),
});

export type DataExportState = z.infer<typeof dataExportStateSchema>;
export type DataExportStatus = z.infer<typeof dataExportStatusSchema>;
