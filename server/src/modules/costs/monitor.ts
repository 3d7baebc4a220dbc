/**
 * The cost monitor and emergency mode (docs/product.md, Limits). It counts only what a paid
 * provider bills (external geocoder calls, paid media store operations), each metric priced
 * by configuration: a metric priced 0 is not counted, and requests this server answers itself
 * never are, so neither a visitor's flood nor ordinary use can stop posting. Each instance
 * buffers its counts and adds them to the shared counters every few seconds; `evaluate()`
 * then reads today's totals and applies the caps: above 100 % a warning, above 120 %
 * throttling (the geocoder is skipped, map answers are cached longer), above 150 % emergency
 * mode for 4 h (post creation refused, sign-up limited, cache lifetimes × 10). The first instance to reach a level for the day
 * (a `cost_alerts` row) is the one that acts, so two instances warn once and start one
 * emergency. An automatic emergency is a staff decision's equal: logged with its reason,
 * announced to staff, shown in the admin panel, and a super_admin may switch it off at once.
 */
import { eq } from 'drizzle-orm';
import {
  COST_CAPS, COST_EMERGENCY_RATIO, COST_METRICS, COST_THROTTLE_RATIO, COST_WARN_RATIO, EMERGENCY_CACHE_MULTIPLIER,
  EMERGENCY_DURATION_MS, THROTTLE_CACHE_MULTIPLIER, type CostLevel, type CostMetric, type CostsResponse, type EmergencyStatus,
} from '@moodmap/core';
import type { Db } from '../../db/client.ts';
import { costAlerts, emergencyMode, profiles } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import type { LogSecurityEvent } from '../security/log.ts';
import { zeroUnits, type CostUnits, type CounterStore } from './counters.ts';

/** A day estimated above this many euros raises an alert. */
const COST_ALERT_EUR = 200;
const FLUSH_EVERY_MS = 2_000;

export interface EmergencyState extends EmergencyStatus {
  manual: boolean;
  startedAt: string | null;
  /** The staff member who switched it on; null when the cost monitor did (or when off). */
  startedBy: string | null;
  reason: string | null;
}

export interface CostSnapshot {
  day: string;
  units: CostUnits;
  ratio: number;
  level: CostLevel;
  emergency: EmergencyState;
}

export interface CostMonitor {
  /** Counts units of a metric (buffered; shared at the next flush). */
  count(metric: CostMetric, units?: number): void;
  flush(): Promise<void>;
  /** Flushes, reads today's totals, applies the caps; the snapshot the sync checks read. */
  evaluate(): Promise<CostSnapshot>;
  /**
   * From now on the periodic round applies the caps only while `leader` leads; on the other
   * instances it shares their counts and reads the level. Without it every instance applies them.
   */
  followLeader(leader: { isLeader(): boolean }): void;
  snapshot(): CostSnapshot;
  /** Throws the 503 while emergency mode is on (read from the database: every instance agrees). */
  assertPostingAllowed(): Promise<void>;
  emergency(): Promise<EmergencyState>;
  setEmergency(active: boolean, userId: string): Promise<EmergencyState>;
  geocoderAllowed(): boolean;
  cacheMultiplier(): number;
  report(): Promise<CostsResponse>;
  close(): Promise<void>;
}

export interface CostMonitorDeps {
  db: Db;
  store: CounterStore;
  now: () => Date;
  logSecurityEvent: LogSecurityEvent;
  unitPrices: Record<CostMetric, number>;
  caps?: Record<CostMetric, number>;
  /** Periodic flush and evaluation; off in tests that drive `evaluate()` themselves. */
  timers?: boolean;
  /** Tells staff that emergency mode changed (after it is stored and logged). */
  announce?: (state: EmergencyState) => Promise<void>;
  onError?: (error: unknown) => void;
}

const dayOf = (date: Date) => date.toISOString().slice(0, 10);
const round = (value: number, digits = 4) => Math.round(value * 10 ** digits) / 10 ** digits;

export function createCostMonitor(deps: CostMonitorDeps): CostMonitor {
  const { db, store, now, logSecurityEvent, unitPrices } = deps;
  const caps = deps.caps ?? COST_CAPS;
  let pending: { day: string; units: Partial<CostUnits> } = { day: dayOf(now()), units: {} };
  const off: EmergencyState = { active: false, until: null, manual: false, startedAt: null, startedBy: null, reason: null };
  let last: CostSnapshot = { day: pending.day, units: zeroUnits(), ratio: 0, level: 'normal', emergency: off };

  const ratioOf = (units: CostUnits) => Math.max(...COST_METRICS.map((m) => units[m] / caps[m]));
  const costOf = (units: CostUnits) => COST_METRICS.reduce((sum, m) => sum + units[m] * unitPrices[m], 0);

  async function flush() {
    const batch = pending;
    pending = { day: dayOf(now()), units: {} };
    if (Object.keys(batch.units).length === 0) return;
    try {
      await store.add(batch.day, batch.units);
    } catch (error) {
      // Put them back: a database blip must not lose the day's counts.
      for (const [metric, units] of Object.entries(batch.units)) {
        pending.units[metric as CostMetric] = (pending.units[metric as CostMetric] ?? 0) + (units ?? 0);
      }
      throw error;
    }
  }

  async function readEmergency(): Promise<EmergencyState> {
    const [row] = await db.select().from(emergencyMode).where(eq(emergencyMode.id, 1)).limit(1);
    if (!row?.activeUntil || row.activeUntil.getTime() <= now().getTime()) return off;
    return {
      active: true, until: row.activeUntil.toISOString(), manual: row.manual, startedAt: row.startedAt?.toISOString() ?? null,
      startedBy: row.startedBy, reason: row.reason,
    };
  }

  /** `by`: the staff member's id, or null for the monitor. */
  async function writeEmergency(active: boolean, by: string | null, reason: string | null): Promise<void> {
    const at = now();
    const manual = by !== null;
    const values = active
      ? { activeUntil: new Date(at.getTime() + EMERGENCY_DURATION_MS), startedAt: at, manual, startedBy: by, reason }
      : { activeUntil: null, startedAt: null, manual, startedBy: null, reason: null };
    await db.insert(emergencyMode).values({ id: 1, ...values }).onConflictDoUpdate({ target: emergencyMode.id, set: values });
  }

  /** Best effort: the change is stored and logged already. */
  async function announce() {
    if (!deps.announce) return;
    try {
      await deps.announce(await readEmergency());
    } catch (error) {
      deps.onError?.(error);
    }
  }

  /** True for the one instance that records this level first today. */
  async function firstToReach(day: string, level: string, ratio: number): Promise<boolean> {
    const inserted = await db.insert(costAlerts).values({ day, level, ratio, createdAt: now() }).onConflictDoNothing().returning({ day: costAlerts.day });
    return inserted.length > 0;
  }

  const describe = (units: CostUnits) => COST_METRICS.map((m) => `${m} ${round(units[m], 1)}/${caps[m]}`).join(', ');

  async function readTotals() {
    await flush();
    const day = dayOf(now());
    const units = await store.read(day);
    return { day, units, ratio: ratioOf(units) };
  }

  async function snapshotOf({ day, units, ratio }: Awaited<ReturnType<typeof readTotals>>): Promise<CostSnapshot> {
    const emergency = await readEmergency();
    const level: CostLevel = emergency.active ? 'emergency' : ratio > COST_THROTTLE_RATIO ? 'throttle' : ratio > COST_WARN_RATIO ? 'warn' : 'normal';
    last = { day, units, ratio, level, emergency };
    return last;
  }

  async function evaluate(): Promise<CostSnapshot> {
    const totals = await readTotals();
    const { day, units, ratio } = totals;
    const percent = Math.round(ratio * 100);
    if (ratio > COST_WARN_RATIO && (await firstToReach(day, 'warn', ratio))) {
      await logSecurityEvent({ eventType: 'cost_warning', description: `Plafond d'usage quotidien dépassé (${percent} %) : ${describe(units)}`, severity: 'medium' });
    }
    if (ratio > COST_THROTTLE_RATIO && (await firstToReach(day, 'throttle', ratio))) {
      await logSecurityEvent({ eventType: 'cost_throttle', description: `Usage à ${percent} % du plafond : géocodage suspendu, cache de la carte prolongé`, severity: 'high' });
    }
    if (ratio > COST_EMERGENCY_RATIO && (await firstToReach(day, 'emergency', ratio))) {
      const reason = `Usage à ${percent} % du plafond : ${describe(units)}`;
      await writeEmergency(true, null, reason);
      await logSecurityEvent({ eventType: 'emergency_mode_on', description: "Mode d'urgence activé automatiquement pour 4 h", reason, severity: 'critical' });
      await announce();
    }
    if (costOf(units) > COST_ALERT_EUR && (await firstToReach(day, 'cost', ratio))) {
      await logSecurityEvent({ eventType: 'cost_alert', description: `Coût estimé du jour au-dessus de ${COST_ALERT_EUR} € (${round(costOf(units), 2)} €)`, severity: 'high' });
    }
    return snapshotOf(totals);
  }

  const fail503 = () => new AppError(503, 'emergency_mode', undefined, { 'retry-after': '300' });

  // Every instance shares its counts and reads the level its sync checks use; only the leader,
  // once there is one, applies the caps (cost_alerts would keep the others from acting twice).
  let leads = () => true;
  let timer: NodeJS.Timeout | undefined;
  if (deps.timers !== false) {
    const tick = () => (leads() ? evaluate() : readTotals().then(snapshotOf));
    timer = setInterval(() => void tick().catch((error) => deps.onError?.(error)), FLUSH_EVERY_MS);
    timer.unref();
  }

  return {
    count(metric, units = 1) {
      // Not billed by anyone (priced 0): nothing to cap.
      if (!(unitPrices[metric] > 0)) return;
      const day = dayOf(now());
      if (day !== pending.day) void flush().catch((error) => deps.onError?.(error));
      pending.units[metric] = (pending.units[metric] ?? 0) + units;
    },
    flush,
    evaluate,
    followLeader(leader) {
      leads = () => leader.isLeader();
    },
    snapshot: () => last,
    async assertPostingAllowed() {
      const state = await readEmergency();
      last = { ...last, emergency: state, level: state.active ? 'emergency' : last.level === 'emergency' ? 'normal' : last.level };
      if (state.active) throw fail503();
    },
    emergency: readEmergency,
    async setEmergency(active, userId) {
      const reason = active ? 'Décision d’un super_admin' : 'Levé par un super_admin';
      await writeEmergency(active, userId, active ? reason : null);
      // With its reason: a staff decision, one entry each (security/log.ts).
      await logSecurityEvent({ userId, eventType: active ? 'emergency_mode_on' : 'emergency_mode_off', description: active ? "Mode d'urgence activé manuellement" : "Mode d'urgence désactivé manuellement", reason, severity: 'high' });
      const state = (await evaluate()).emergency;
      await announce();
      return state;
    },
    geocoderAllowed: () => last.level !== 'throttle' && last.level !== 'emergency',
    cacheMultiplier: () => (last.level === 'emergency' ? EMERGENCY_CACHE_MULTIPLIER : last.level === 'throttle' ? THROTTLE_CACHE_MULTIPLIER : 1),
    async report() {
      const snap = await evaluate();
      const counters = COST_METRICS.map((metric) => ({
        metric,
        units: round(snap.units[metric], 2),
        cap: caps[metric],
        ratio: round(snap.units[metric] / caps[metric]),
        unitPriceEur: unitPrices[metric],
        costEur: round(snap.units[metric] * unitPrices[metric]),
      }));
      const { startedBy } = snap.emergency;
      const [by] = startedBy ? await db.select({ username: profiles.username }).from(profiles).where(eq(profiles.id, startedBy)).limit(1) : [];
      const emergency = { ...snap.emergency, startedByName: by?.username ?? null };
      return { day: snap.day, level: snap.level, counters, estimatedDailyCostEur: round(costOf(snap.units), 2), emergency };
    },
    async close() {
      if (timer) clearInterval(timer);
      await flush().catch(() => {});
      await store.close();
    },
  };
}
