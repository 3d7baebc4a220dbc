/**
 * The cost monitor's daily counters, shared by every instance: a row per day and metric in
 * PostgreSQL, or a hash per day in Redis when REDIS_URL is set (no write on the database's
 * path for the busiest counter, backend requests).
 */
import { Redis } from 'ioredis';
import { and, eq, sql } from 'drizzle-orm';
import { COST_METRICS, DAY, SECOND, type CostMetric } from '@moodmap/core';
import type { Db } from '../../db/client.ts';
import { costCounters } from '../../db/schema.ts';

export type CostUnits = Record<CostMetric, number>;

export interface CounterStore {
  add(day: string, increments: Partial<CostUnits>): Promise<void>;
  read(day: string): Promise<CostUnits>;
  close(): Promise<void>;
}

export const zeroUnits = (): CostUnits => Object.fromEntries(COST_METRICS.map((m) => [m, 0])) as CostUnits;

export function createSqlCounterStore(db: Db): CounterStore {
  return {
    async add(day, increments) {
      const rows = Object.entries(increments)
        .filter(([, units]) => units)
        .map(([metric, units]) => ({ day, metric, units: units ?? 0 }));
      if (rows.length === 0) return;
      await db
        .insert(costCounters)
        .values(rows)
        .onConflictDoUpdate({
          target: [costCounters.day, costCounters.metric],
          set: { units: sql`${costCounters.units} + excluded.units` },
        });
    },
    async read(day) {
      const rows = await db
        .select({ metric: costCounters.metric, units: costCounters.units })
        .from(costCounters)
        .where(and(eq(costCounters.day, day)));
      const units = zeroUnits();
      for (const row of rows)
        if ((COST_METRICS as readonly string[]).includes(row.metric)) units[row.metric as CostMetric] = row.units;
      return units;
    },
    async close() {},
  };
}

const DAY_TTL_S = (3 * DAY) / SECOND;

export function createRedisCounterStore(url: string, prefix: string): CounterStore {
  const redis = new Redis(url, { maxRetriesPerRequest: 2, enableOfflineQueue: true });
  redis.on('error', () => {});
  const key = (day: string) => `${prefix}costs:${day}`;
  return {
    async add(day, increments) {
      const tx = redis.multi();
      for (const [metric, units] of Object.entries(increments)) if (units) tx.hincrbyfloat(key(day), metric, units);
      tx.expire(key(day), DAY_TTL_S);
      await tx.exec();
    },
    async read(day) {
      const hash = await redis.hgetall(key(day));
      const units = zeroUnits();
      for (const metric of COST_METRICS) units[metric] = Number(hash[metric] ?? 0);
      return units;
    },
    async close() {
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}
