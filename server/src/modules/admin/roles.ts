/** Where a role is stored: a staff_roles row, none for 'user' (the default). */
import { eq } from 'drizzle-orm';
import type { StaffRole } from '@moodmap/core';
import type { Db } from '../../db/client.ts';
import { staffRoles } from '../../db/schema.ts';

export async function storeRole(db: Db, userId: string, role: StaffRole): Promise<void> {
  if (role === 'user') await db.delete(staffRoles).where(eq(staffRoles.userId, userId));
  else
    await db
      .insert(staffRoles)
      .values({ userId, role })
      .onConflictDoUpdate({ target: staffRoles.userId, set: { role } });
}
