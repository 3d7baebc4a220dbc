/**
 * The migrated database accepts exactly core's values where a CHECK lists them: a value added
 * to one of core's enums without its migration fails here, before the database refuses it.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  ANALYTICS_EVENTS,
  APPEAL_STATUSES,
  DATA_EXPORT_STATUSES,
  MODERATION_ACTIONS,
  MODERATION_NOTICE_KINDS,
  MOODS,
  PURCHASE_STATUSES,
  REPORT_REASON_KEYS,
  SECURITY_SEVERITIES,
  STAFF_ROLES,
} from '@moodmap/core';
import type { Database } from '../../src/db/client.ts';
import { createTestDatabase, engines } from '../helpers/databases.ts';

/** Each CHECK constraint that lists one of core's enums, and that enum. */
const CORE_LISTS: Record<string, readonly string[]> = {
  staff_roles_role: STAFF_ROLES,
  publications_category: MOODS,
  post_reports_reason_key: REPORT_REASON_KEYS,
  security_logs_severity: SECURITY_SEVERITIES,
  pulse_purchases_status: PURCHASE_STATUSES,
  moderation_decisions_action: MODERATION_ACTIONS,
  moderation_appeals_status: APPEAL_STATUSES,
  moderation_notices_kind: MODERATION_NOTICE_KINDS,
  analytics_events_name: ANALYTICS_EVENTS,
  data_exports_status: DATA_EXPORT_STATUSES,
};

const constraintRows = z.array(z.object({ name: z.string(), definition: z.string() }));

/** The quoted values of a constraint as PostgreSQL prints it: `(x = ANY (ARRAY['a'::text, 'b'::text]))`. */
function listedValues(definition: string): string[] {
  return [...definition.matchAll(/'((?:[^']|'')*)'::text/g)].map((m) => m[1].replaceAll("''", "'")).sort();
}

describe.each(engines)('CHECK lists and core enums on %s', (engine) => {
  let database: Database;
  beforeAll(async () => {
    database = await createTestDatabase(engine);
  });
  afterAll(() => database.close());

  it("lists exactly each enum's values in its constraint", async () => {
    const { rows } = await database.db.execute(
      sql`select conname as name, pg_get_constraintdef(oid) as definition from pg_constraint where contype = 'c'`,
    );
    const definitions = new Map(constraintRows.parse(rows).map((r) => [r.name, r.definition]));
    for (const [name, values] of Object.entries(CORE_LISTS)) {
      const definition = definitions.get(name);
      expect(definition, name).toBeDefined();
      expect(listedValues(definition ?? ''), name).toEqual([...values].sort());
    }
  });
});
