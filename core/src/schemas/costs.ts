/** The cost monitor and emergency mode (docs/product.md, Roles and staff). */
import { z } from 'zod';

export const emergencyStatusResponseSchema = z.object({
  active: z.boolean(),
  until: z.string().nullable(),
});
export type EmergencyStatus = z.infer<typeof emergencyStatusResponseSchema>;

export const costCounterSchema = z.object({
  metric: z.enum(['geocoding', 'map_loads', 'backend_requests', 'storage_operations']),
  units: z.number(),
  cap: z.number(),
  ratio: z.number(),
  /** Price of one unit in EUR (configuration) and today's estimate for this metric. */
  unitPriceEur: z.number(),
  costEur: z.number(),
});
export const costsResponseSchema = z.object({
  day: z.string(),
  level: z.enum(['normal', 'warn', 'throttle', 'emergency']),
  counters: z.array(costCounterSchema),
  estimatedDailyCostEur: z.number(),
  /** Who switched it on (a staff member, or null: the cost monitor), when and why. */
  emergency: emergencyStatusResponseSchema.extend({
    manual: z.boolean(),
    startedAt: z.string().nullable(),
    startedBy: z.string().nullable(),
    startedByName: z.string().nullable(),
    reason: z.string().nullable(),
  }),
});
export type CostsResponse = z.infer<typeof costsResponseSchema>;

export const setEmergencySchema = z.object({ active: z.boolean() });

/** Realtime event to admin and super_admin sockets when emergency mode changes, whoever changed it. */
export const EMERGENCY_CHANGED_EVENT = 'emergency.changed';
