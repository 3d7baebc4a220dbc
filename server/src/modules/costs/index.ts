/** The cost monitor behind the configuration: counters in Redis when REDIS_URL is set, else in the database. */
import type { FastifyBaseLogger } from 'fastify';
import { inArray } from 'drizzle-orm';
import { EMERGENCY_CHANGED_EVENT } from '@moodmap/core';
import type { EventBus } from '../../adapters/bus/types.ts';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/client.ts';
import { staffRoles } from '../../db/schema.ts';
import { STAFF_RULES } from '../../policies/staff.ts';
import type { LogSecurityEvent } from '../security/log.ts';
import { createRedisCounterStore, createSqlCounterStore } from './counters.ts';
import type { EmergencyState } from './emergency.ts';
import { createCostMonitor, type CostMonitor } from './monitor.ts';

export type { CostMonitor } from './monitor.ts';

export function createCosts(
  config: Config,
  database: Database,
  now: () => Date,
  logSecurityEvent: LogSecurityEvent,
  log: FastifyBaseLogger,
  bus: EventBus,
): CostMonitor {
  const store = config.redisUrl
    ? createRedisCounterStore(config.redisUrl, config.redisPrefix)
    : createSqlCounterStore(database.db);
  async function announce({ active, until, manual }: EmergencyState) {
    // Those who read the costs are told.
    const staff = await database.db
      .select({ id: staffRoles.userId })
      .from(staffRoles)
      .where(inArray(staffRoles.role, [...STAFF_RULES.readCosts.roles]));
    if (staff.length === 0) return;
    await bus.publish({
      type: EMERGENCY_CHANGED_EVENT,
      data: { active, until, manual },
      targets: staff.map((s) => s.id),
    });
  }
  return createCostMonitor({
    db: database.db,
    store,
    now,
    logSecurityEvent,
    unitPrices: config.costUnitPrices,
    timers: config.env !== 'test',
    announce,
    onError: (err) => log.warn({ err }, 'cost monitor'),
  });
}
