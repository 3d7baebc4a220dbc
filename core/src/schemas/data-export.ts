/**
 * 'Télécharger mes données': the state of a member's data archive (GET /api/account/export).
 * `none` before any request; `expired` once its 7 days are over and its file is gone.
 */
import { z } from 'zod';
import { DAY } from '../durations.ts';

/** How long a ready archive can be downloaded. */
export const DATA_EXPORT_TTL_MS = 7 * DAY;
/** One request per member within this window. */
export const DATA_EXPORT_EVERY_MS = DAY;

/** The states of a requested archive (a stored row); 'none' is the absence of any request. */
export const DATA_EXPORT_STATUSES = ['pending', 'ready', 'failed', 'expired'] as const;
export const dataExportStateSchema = z.enum(['none', ...DATA_EXPORT_STATUSES]);

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
