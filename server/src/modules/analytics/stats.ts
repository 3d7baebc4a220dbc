/**
 * The statistics tab's numbers: per day over the last 7/30/90 days, the seven events,
 * unique visitors (distinct daily hashes), revenue in EUR cents, messages stored; and the posts
 * live now. Days without anything are filled with zeros so charts have one point per day.
 * Messages sent are the messages stored, not an event anyone reports.
 */
import { and, count, countDistinct, gte, sql, sum } from 'drizzle-orm';
import {
  ANALYTICS_EVENTS,
  DAY,
  POST_LIFETIME_MS,
  type AnalyticsEventName,
  type StatsDay,
  type StatsResponse,
} from '@moodmap/core';
import type { Db } from '../../db/client.ts';
import { analyticsEvents, messages, publications } from '../../db/schema.ts';

const dayOf = (date: Date) => date.toISOString().slice(0, 10);

export async function readStats(db: Db, now: Date, days: number): Promise<StatsResponse> {
  const first = dayOf(new Date(now.getTime() - (days - 1) * DAY));
  const firstInstant = new Date(`${first}T00:00:00.000Z`);
  const [eventRows, visitorRows, messageRows, [live]] = await Promise.all([
    db
      .select({
        day: analyticsEvents.day,
        name: analyticsEvents.name,
        n: count(),
        revenue: sum(analyticsEvents.revenueCents),
      })
      .from(analyticsEvents)
      .where(gte(analyticsEvents.day, first))
      .groupBy(analyticsEvents.day, analyticsEvents.name),
    db
      .select({ day: analyticsEvents.day, n: countDistinct(analyticsEvents.visitor) })
      .from(analyticsEvents)
      .where(gte(analyticsEvents.day, first))
      .groupBy(analyticsEvents.day),
    db
      .select({ day: sql<string>`to_char(${messages.createdAt} at time zone 'UTC', 'YYYY-MM-DD')`, n: count() })
      .from(messages)
      .where(gte(messages.createdAt, firstInstant))
      .groupBy(sql`1`),
    db
      .select({ n: count() })
      .from(publications)
      .where(and(gte(publications.createdAt, new Date(now.getTime() - POST_LIFETIME_MS)))),
  ]);
  const byDay = new Map<string, StatsDay>();
  for (let i = 0; i < days; i++) {
    const day = dayOf(new Date(firstInstant.getTime() + i * DAY));
    const events = Object.fromEntries(ANALYTICS_EVENTS.map((e) => [e, 0])) as Record<AnalyticsEventName, number>;
    byDay.set(day, { day, events, visitors: 0, revenueCents: 0, messages: 0 });
  }
  for (const row of eventRows) {
    const entry = byDay.get(row.day);
    if (!entry || !(ANALYTICS_EVENTS as readonly string[]).includes(row.name)) continue;
    entry.events[row.name as AnalyticsEventName] = row.n;
    entry.revenueCents += Number(row.revenue ?? 0);
  }
  for (const row of visitorRows) {
    const entry = byDay.get(row.day);
    if (entry) entry.visitors = row.n;
  }
  for (const row of messageRows) {
    const entry = byDay.get(row.day);
    if (!entry) continue;
    entry.messages = row.n;
    entry.events.message_sent = row.n;
  }
  return { days: [...byDay.values()], postsLive: live?.n ?? 0, currency: 'EUR' };
}
