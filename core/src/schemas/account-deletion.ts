/** Deleting one's own account: confirmed by the current password. */
import { z } from 'zod';
import { signInPasswordSchema } from './auth.ts';

export const accountDeletionSchema = z.object({ password: signInPasswordSchema });
export type AccountDeletionInput = z.infer<typeof accountDeletionSchema>;
