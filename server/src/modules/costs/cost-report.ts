/** The admin panel's cost report: each metric against its cap and price, and who started an emergency. */
import { eq } from 'drizzle-orm';
import { COST_METRICS, type CostLevel, type CostMetric, type CostsResponse } from '@moodmap/core';
import type { Db } from '../../db/client.ts';
import { profiles } from '../../db/schema.ts';
import { costOf, round } from './cost-figures.ts';
import type { CostUnits } from './counters.ts';
import type { EmergencyState } from './emergency.ts';

export async function costReport(
  db: Db,
  snap: { day: string; units: CostUnits; level: CostLevel; emergency: EmergencyState },
  caps: Record<CostMetric, number>,
  unitPrices: Record<CostMetric, number>,
): Promise<CostsResponse> {
  const counters = COST_METRICS.map((metric) => ({
    metric,
    units: round(snap.units[metric], 2),
    cap: caps[metric],
    ratio: round(snap.units[metric] / caps[metric]),
    unitPriceEur: unitPrices[metric],
    costEur: round(snap.units[metric] * unitPrices[metric]),
  }));
  const { startedBy } = snap.emergency;
  const [by] = startedBy
    ? await db.select({ username: profiles.username }).from(profiles).where(eq(profiles.id, startedBy)).limit(1)
    : [];
  const emergency = { ...snap.emergency, startedByName: by?.username ?? null };
  return {
    day: snap.day,
    level: snap.level,
    counters,
    estimatedDailyCostEur: round(costOf(snap.units, unitPrices), 2),
    emergency,
  };
}
