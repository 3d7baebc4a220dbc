/** Arithmetic on a day's units: how far along the caps, what it costs, and how the alerts tell it. */
import { COST_METRICS, type CostMetric } from '@moodmap/core';
import type { CostUnits } from './counters.ts';

export const round = (value: number, digits = 4) => Math.round(value * 10 ** digits) / 10 ** digits;

/** The highest share of its cap any metric reached. */
export const ratioOf = (units: CostUnits, caps: Record<CostMetric, number>) =>
  Math.max(...COST_METRICS.map((m) => units[m] / caps[m]));

export const costOf = (units: CostUnits, prices: Record<CostMetric, number>) =>
  COST_METRICS.reduce((sum, m) => sum + units[m] * prices[m], 0);

export const describe = (units: CostUnits, caps: Record<CostMetric, number>) =>
  COST_METRICS.map((m) => `${m} ${round(units[m], 1)}/${caps[m]}`).join(', ');
