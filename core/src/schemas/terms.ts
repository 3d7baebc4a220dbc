/** Terms of use (docs/product.md, Rights and terms): which version applies, which one is announced, what the member accepted. */
import { z } from 'zod';

export const termsVersionSchema = z.object({ version: z.string(), effectiveAt: z.string() });

export const termsStatusResponseSchema = z.object({
  current: termsVersionSchema,
  /** The next version during its 30-day notice, else null. */
  upcoming: termsVersionSchema.nullable(),
  /** For a signed-in caller: the version they accepted (null: none yet) and whether they must accept the current one. */
  acceptedVersion: z.string().nullable(),
  mustAccept: z.boolean(),
});
export type TermsStatus = z.infer<typeof termsStatusResponseSchema>;

export const acceptTermsSchema = z.object({ version: z.string().trim().min(1).max(40) });
export const acceptTermsResponseSchema = z.object({ version: z.string(), acceptedAt: z.string() });
