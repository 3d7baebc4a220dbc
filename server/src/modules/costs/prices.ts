/**
 * Prices per unit in EUR, as configuration (COST_UNIT_PRICES_EUR="geocoding=0.0015,storage_operations=0.0005").
 * Defaults: public list prices of the paid providers this server calls (Mapbox geocoding, S3
 * operations), rounded up; 0 for what nobody bills (this server's own answers and map tiles).
 * A metric priced 0 is not counted.
 */
import { COST_METRICS, type CostMetric } from '@moodmap/core';

export const DEFAULT_UNIT_PRICES_EUR: Record<CostMetric, number> = {
  geocoding: 0.0015,
  map_loads: 0,
  backend_requests: 0,
  storage_operations: 0.0005,
};

/** Reads "metric=price,…"; unknown metrics and invalid prices are refused so a typo is seen at start. */
export function parseUnitPrices(text: string | undefined): Record<CostMetric, number> {
  const prices = { ...DEFAULT_UNIT_PRICES_EUR };
  if (!text) return prices;
  for (const pair of text
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)) {
    const [metric, value] = pair.split('=').map((p) => p.trim());
    const price = Number(value);
    if (!(COST_METRICS as readonly string[]).includes(metric) || !Number.isFinite(price) || price < 0) {
      throw new Error(`COST_UNIT_PRICES_EUR : « ${pair} » invalide (attendu : ${COST_METRICS.join('|')}=prix)`);
    }
    prices[metric as CostMetric] = price;
  }
  return prices;
}
