/** Emergency mode's one row: on until a time, by a staff member or by the cost monitor, with its reason. */
import { eq } from 'drizzle-orm';
import { EMERGENCY_DURATION_MS, type EmergencyStatus } from '@moodmap/core';
import type { Db } from '../../db/client.ts';
import { emergencyMode } from '../../db/schema.ts';

export interface EmergencyState extends EmergencyStatus {
  manual: boolean;
  startedAt: string | null;
  /** The staff member who switched it on; null when the cost monitor did (or when off). */
  startedBy: string | null;
  reason: string | null;
}

export const EMERGENCY_OFF: EmergencyState = {
  active: false,
  until: null,
  manual: false,
  startedAt: null,
  startedBy: null,
  reason: null,
};

export async function readEmergency(db: Db, now: () => Date): Promise<EmergencyState> {
  const [row] = await db.select().from(emergencyMode).where(eq(emergencyMode.id, 1)).limit(1);
  if (!row?.activeUntil || row.activeUntil.getTime() <= now().getTime()) return EMERGENCY_OFF;
  return {
    active: true,
    until: row.activeUntil.toISOString(),
    manual: row.manual,
    startedAt: row.startedAt?.toISOString() ?? null,
    startedBy: row.startedBy,
    reason: row.reason,
  };
}

/** Switches it on for EMERGENCY_DURATION_MS, or off; `by`: the staff member's id, or null for the monitor. */
export async function writeEmergency(
  db: Db,
  at: Date,
  active: boolean,
  by: string | null,
  reason: string | null,
): Promise<void> {
  const manual = by !== null;
  const values = active
    ? { activeUntil: new Date(at.getTime() + EMERGENCY_DURATION_MS), startedAt: at, manual, startedBy: by, reason }
    : { activeUntil: null, startedAt: null, manual, startedBy: null, reason: null };
  await db
    .insert(emergencyMode)
    .values({ id: 1, ...values })
    .onConflictDoUpdate({ target: emergencyMode.id, set: values });
}
