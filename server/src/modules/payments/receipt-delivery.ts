/** Sends a credited purchase's receipt to the buyer's account address. */
import { eq } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import { profiles, users } from '../../db/schema.ts';
import type { PurchaseRow } from './credits.ts';
import { receiptMail } from './receipt.ts';

export async function sendReceipt(ctx: AppContext, purchase: PurchaseRow): Promise<void> {
  const [buyer] = await ctx.database.db
    .select({ email: users.email, username: profiles.username })
    .from(users)
    .innerJoin(profiles, eq(profiles.id, users.id))
    .where(eq(users.id, purchase.userId))
    .limit(1);
  if (!buyer) return;
  await ctx.mailer.send(receiptMail(buyer.email, buyer.username, purchase));
}
