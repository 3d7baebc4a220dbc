/**
 * How the client reads a session and its user, leniently (a missing profile field gets its
 * default rather than signing the user out). zod's schemas, so this module is only imported
 * dynamically (auth-tokens.ts `loadSessionSchemas`): zod stays off the first load.
 */
import { z } from 'zod';

/** What login, refresh, reset-password and a password change give: the access token and the user. */
export const sessionSchema = z.object({
  accessToken: z.string().min(1),
  expiresIn: z.number().positive(),
  user: z.unknown(),
});

const text = z.string().nullable().optional().catch(null);
const flag = z.boolean().optional().catch(false);

const profileSchema = z.object({
  username: text,
  bio: text,
  profilePhotoUrl: text,
  avatarUrl: text,
  firstName: text,
  lastName: text,
  dateOfBirth: text,
  phoneNumber: text,
  createdAt: text,
  isPremium: flag,
  isPro: flag,
  isPlus: flag,
  isMulti: flag,
  pulseCredits: z.number().optional().catch(0),
  lastUsernameChange: text,
  usernameChangesCount: z.number().optional().catch(0),
});

/** The server's user as the client reads it (auth-api.ts maps it to its SessionUser). */
export const userSchema = z.object({
  id: z.string().min(1),
  email: z.string().min(1),
  role: z.string().optional().catch(undefined),
  isAdmin: flag,
  profile: profileSchema.nullable().optional().catch(null),
});

export type ReadUser = z.output<typeof userSchema>;
