/**
 * The caps applied to a day's totals: above 100 % a warning, above 120 % throttling, above
 * 150 % emergency mode, and an alert past COST_ALERT_EUR. Each is acted on once a day, by the
 * first instance to record it (a `cost_alerts` row).
 */
import { COST_EMERGENCY_RATIO, COST_THROTTLE_RATIO, COST_WARN_RATIO, type CostMetric } from '@moodmap/core';
import type { Db } from '../../db/client.ts';
import { costAlerts } from '../../db/schema.ts';
import type { LogSecurityEvent } from '../security/log.ts';
import { costOf, describe, round } from './cost-figures.ts';
import type { CostUnits } from './counters.ts';

/** A day estimated above this many euros raises an alert. */
const COST_ALERT_EUR = 200;

export interface DayTotals {
  day: string;
  units: CostUnits;
  ratio: number;
}

export interface CapsDeps {
  db: Db;
  now: () => Date;
  logSecurityEvent: LogSecurityEvent;
  caps: Record<CostMetric, number>;
  unitPrices: Record<CostMetric, number>;
  /** Stores emergency mode switched on by the monitor, for this reason. */
  startEmergency(reason: string): Promise<void>;
  /** Tells staff, once the emergency is stored and logged. */
  announce(): Promise<void>;
}

export async function applyCaps(deps: CapsDeps, { day, units, ratio }: DayTotals): Promise<void> {
  const { caps, logSecurityEvent } = deps;
  /** True for the one instance that records this level first today. */
  const firstToReach = async (level: string) => {
    const inserted = await deps.db
      .insert(costAlerts)
      .values({ day, level, ratio, createdAt: deps.now() })
      .onConflictDoNothing()
      .returning({ day: costAlerts.day });
    return inserted.length > 0;
  };
  const percent = Math.round(ratio * 100);
  if (ratio > COST_WARN_RATIO && (await firstToReach('warn'))) {
    await logSecurityEvent({
      eventType: 'cost_warning',
      description: `Plafond d'usage quotidien dépassé (${percent} %) : ${describe(units, caps)}`,
      severity: 'medium',
    });
  }
  if (ratio > COST_THROTTLE_RATIO && (await firstToReach('throttle'))) {
    await logSecurityEvent({
      eventType: 'cost_throttle',
      description: `Usage à ${percent} % du plafond : géocodage suspendu, cache de la carte prolongé`,
      severity: 'high',
    });
  }
  if (ratio > COST_EMERGENCY_RATIO && (await firstToReach('emergency'))) {
    const reason = `Usage à ${percent} % du plafond : ${describe(units, caps)}`;
    await deps.startEmergency(reason);
    await logSecurityEvent({
      eventType: 'emergency_mode_on',
      description: "Mode d'urgence activé automatiquement pour 4 h",
      reason,
      severity: 'critical',
    });
    await deps.announce();
  }
  const cost = costOf(units, deps.unitPrices);
  if (cost > COST_ALERT_EUR && (await firstToReach('cost'))) {
    await logSecurityEvent({
      eventType: 'cost_alert',
      description: `Coût estimé du jour au-dessus de ${COST_ALERT_EUR} € (${round(cost, 2)} €)`,
      severity: 'high',
    });
  }
}
