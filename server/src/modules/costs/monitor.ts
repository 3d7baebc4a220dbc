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
import {
  COST_CAPS,
  COST_THROTTLE_RATIO,
  COST_WARN_RATIO,
  EMERGENCY_CACHE_MULTIPLIER,
  THROTTLE_CACHE_MULTIPLIER,
  type CostLevel,
  type CostMetric,
  type CostsResponse,
} from '@moodmap/core';
import type { Db } from '../../db/client.ts';
import { AppError } from '../../errors.ts';
import type { LogSecurityEvent } from '../security/log.ts';
import { applyCaps, type DayTotals } from './cost-caps.ts';
import { ratioOf } from './cost-figures.ts';
import { costReport } from './cost-report.ts';
import { createCountBuffer, dayOf } from './count-buffer.ts';
import { zeroUnits, type CostUnits, type CounterStore } from './counters.ts';
import { EMERGENCY_OFF, readEmergency, writeEmergency, type EmergencyState } from './emergency.ts';

const FLUSH_EVERY_MS = 2_000;

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

const levelOf = (ratio: number, emergency: EmergencyState): CostLevel =>
  emergency.active
    ? 'emergency'
    : ratio > COST_THROTTLE_RATIO
      ? 'throttle'
      : ratio > COST_WARN_RATIO
        ? 'warn'
        : 'normal';

/** The periodic round (flush, then read or apply the caps), not holding the process open. */
function startRounds(round: () => Promise<unknown>, onError?: (error: unknown) => void): NodeJS.Timeout {
  const timer = setInterval(() => void round().catch((error) => onError?.(error)), FLUSH_EVERY_MS);
  timer.unref();
  return timer;
}

const fail503 = () => new AppError(503, 'emergency_mode', undefined, { 'retry-after': '300' });

/** How much longer answers are cached at a cost level. */
const cacheMultiplierOf = (level: CostLevel): number =>
  level === 'emergency' ? EMERGENCY_CACHE_MULTIPLIER : level === 'throttle' ? THROTTLE_CACHE_MULTIPLIER : 1;

/** A super_admin's switch, stored, then logged with its reason (a staff decision: one entry each, security/log.ts). */
async function recordManualSwitch(
  db: Db,
  now: () => Date,
  logSecurityEvent: LogSecurityEvent,
  active: boolean,
  userId: string,
): Promise<void> {
  const reason = active ? 'Décision d’un super_admin' : 'Levé par un super_admin';
  await writeEmergency(db, now(), active, userId, active ? reason : null);
  await logSecurityEvent({
    userId,
    eventType: active ? 'emergency_mode_on' : 'emergency_mode_off',
    description: active ? "Mode d'urgence activé manuellement" : "Mode d'urgence désactivé manuellement",
    reason,
    severity: 'high',
  });
}

export function createCostMonitor(deps: CostMonitorDeps): CostMonitor {
  const { db, store, now, logSecurityEvent, unitPrices } = deps;
  const caps = deps.caps ?? COST_CAPS;
  const counts = createCountBuffer(store, now, deps.onError);
  let last: CostSnapshot = {
    day: dayOf(now()),
    units: zeroUnits(),
    ratio: 0,
    level: 'normal',
    emergency: EMERGENCY_OFF,
  };
  const readState = () => readEmergency(db, now);

  /** Best effort: the change is stored and logged already. */
  async function announce() {
    if (!deps.announce) return;
    try {
      await deps.announce(await readState());
    } catch (error) {
      deps.onError?.(error);
    }
  }

  async function readTotals(): Promise<DayTotals> {
    await counts.flush();
    const day = dayOf(now());
    const units = await store.read(day);
    return { day, units, ratio: ratioOf(units, caps) };
  }

  async function snapshotOf({ day, units, ratio }: DayTotals): Promise<CostSnapshot> {
    const emergency = await readState();
    last = { day, units, ratio, level: levelOf(ratio, emergency), emergency };
    return last;
  }

  const capsDeps = {
    db,
    now,
    logSecurityEvent,
    caps,
    unitPrices,
    announce,
    startEmergency: (reason: string) => writeEmergency(db, now(), true, null, reason),
  };
  async function evaluate(): Promise<CostSnapshot> {
    const totals = await readTotals();
    await applyCaps(capsDeps, totals);
    return snapshotOf(totals);
  }

  // Every instance shares its counts and reads the level its sync checks use; only the leader,
  // once there is one, applies the caps (cost_alerts would keep the others from acting twice).
  let leads = () => true;
  const timer =
    deps.timers === false
      ? undefined
      : startRounds(() => (leads() ? evaluate() : readTotals().then(snapshotOf)), deps.onError);

  return {
    count(metric, units = 1) {
      // Not billed by anyone (priced 0): nothing to cap.
      if (unitPrices[metric] > 0) counts.add(metric, units);
    },
    flush: counts.flush,
    evaluate,
    followLeader(leader) {
      leads = () => leader.isLeader();
    },
    snapshot: () => last,
    async assertPostingAllowed() {
      const state = await readState();
      last = {
        ...last,
        emergency: state,
        level: state.active ? 'emergency' : last.level === 'emergency' ? 'normal' : last.level,
      };
      if (state.active) throw fail503();
    },
    emergency: readState,
    async setEmergency(active, userId) {
      await recordManualSwitch(db, now, logSecurityEvent, active, userId);
      const state = (await evaluate()).emergency;
      await announce();
      return state;
    },
    geocoderAllowed: () => last.level !== 'throttle' && last.level !== 'emergency',
    cacheMultiplier: () => cacheMultiplierOf(last.level),
    report: async () => costReport(db, await evaluate(), caps, unitPrices),
    async close() {
      if (timer) clearInterval(timer);
      await counts.flush().catch(() => {});
      await store.close();
    },
  };
}
