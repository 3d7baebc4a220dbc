/** First-party analytics and the admin statistics built from them. */
import { z } from 'zod';
import { ANALYTICS_EVENTS, CLIENT_ANALYTICS_EVENTS } from '../launch.ts';

/**
 * What the web app sends: one of the events only it sees, and the page's route template (no
 * query, no user, no id; the server maps any path it is given to its template again).
 */
export const analyticsEventSchema = z
  .object({
    name: z.enum(CLIENT_ANALYTICS_EVENTS),
    path: z
      .string()
      .max(200)
      .regex(/^\/[\w\-/:*]*$/)
      .optional(),
  })
  .strict();
export type AnalyticsEventInput = z.infer<typeof analyticsEventSchema>;

export const statsQuerySchema = z.object({
  days: z.coerce
    .number()
    .pipe(z.union([z.literal(7), z.literal(30), z.literal(90)]))
    .default(7),
});

const eventCountsSchema = z.object(
  Object.fromEntries(ANALYTICS_EVENTS.map((e) => [e, z.number().int()])) as Record<
    (typeof ANALYTICS_EVENTS)[number],
    z.ZodNumber
  >,
);

export const statsDaySchema = z.object({
  day: z.string(),
  events: eventCountsSchema,
  visitors: z.number().int(),
  revenueCents: z.number().int(),
  /** Messages stored that day (from the messages table, not the analytics events). */
  messages: z.number().int(),
});
export const statsResponseSchema = z.object({
  days: z.array(statsDaySchema),
  postsLive: z.number().int(),
  currency: z.literal('EUR'),
});
export type StatsResponse = z.infer<typeof statsResponseSchema>;
export type StatsDay = z.infer<typeof statsDaySchema>;
