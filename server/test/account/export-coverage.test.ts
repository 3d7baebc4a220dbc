/**
 * Every database column naming a member is either written to the data archive or left out for a
 * stated reason (modules/account/export-tables.ts). The columns are read from the database's own
 * catalogue: a foreign key to users or profiles, or a name such as user_id, author_id, *_user_id.
 */
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { Db } from '../../src/db/client.ts';
import { EXCLUDED_COLUMNS, EXPORTED_COLUMNS } from '../../src/modules/account/export-tables.ts';
import { engines } from '../helpers/databases.ts';
import { suiteTestApp } from '../helpers/suite-app.ts';

const MEMBER_COLUMN_NAME = /^(user_id|author_id|.+_user_id|.+_author_id)$/;

/** `table.column` of every base table's column that names a member. */
async function memberColumns(db: Db): Promise<string[]> {
  const named = await db.execute(sql`
    select c.table_name, c.column_name from information_schema.columns c
    join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name
    where c.table_schema = 'public' and t.table_type = 'BASE TABLE'`);
  const referencing = await db.execute(sql`
    select k.table_name, k.column_name from information_schema.table_constraints tc
    join information_schema.key_column_usage k on k.constraint_name = tc.constraint_name and k.table_schema = tc.table_schema
    join information_schema.constraint_column_usage u on u.constraint_name = tc.constraint_name and u.table_schema = tc.table_schema
    where tc.constraint_type = 'FOREIGN KEY' and tc.table_schema = 'public'
      and u.table_name in ('users', 'profiles') and u.column_name = 'id'`);
  const found = new Set<string>(['users.id', 'profiles.id']);
  for (const row of named.rows)
    if (MEMBER_COLUMN_NAME.test(String(row.column_name))) found.add(`${row.table_name}.${row.column_name}`);
  for (const row of referencing.rows) found.add(`${row.table_name}.${row.column_name}`);
  return [...found].sort();
}

const declared = new Set<string>([...Object.keys(EXPORTED_COLUMNS), ...Object.keys(EXCLUDED_COLUMNS)]);

describe.each(engines)('the data archive covers every member column on %s', (engine) => {
  const t = suiteTestApp(engine);

  it('each is exported or excluded with a reason, and each declared one exists', async () => {
    const columns = await memberColumns(t.database.db);
    expect(columns.filter((c) => !declared.has(c))).toEqual([]);
    expect([...declared].filter((c) => !columns.includes(c))).toEqual([]);
    expect(Object.keys(EXPORTED_COLUMNS).filter((c) => c in EXCLUDED_COLUMNS)).toEqual([]);
  });

  it('a new table with a member column is caught until it is declared', async () => {
    await t.database.db.execute(
      sql`create table export_probe (id uuid primary key, owner uuid references profiles(id), author_id uuid)`,
    );
    try {
      expect((await memberColumns(t.database.db)).filter((c) => !declared.has(c))).toEqual([
        'export_probe.author_id',
        'export_probe.owner',
      ]);
    } finally {
      await t.database.db.execute(sql`drop table export_probe`);
    }
  });
});
