/**
 * Groups of fields that several answers carry, named once so that they cannot drift apart: a
 * point of the map, the display tiers (badges that grant nothing) and what anyone may see of
 * a profile. They are shapes, spread where they stand in each answer, so every answer keeps its
 * own key order.
 */
import { z } from 'zod';

/** A point of the map as the answers carry it (degrees; the inputs' ranges were checked when it was stored). */
export const pointShape = {
  latitude: z.number(),
  longitude: z.number(),
};

/** The display tiers' flags: on a post's or comment's author, the public and the signed-in profile. */
export const tierFlagsShape = {
  isPremium: z.boolean(),
  isPro: z.boolean(),
  isPlus: z.boolean(),
  isMulti: z.boolean(),
};

/** Who a profile is, as anyone may read it: the head of the public and of the signed-in profile. */
export const profileIdentityShape = {
  id: z.string(),
  username: z.string(),
  bio: z.string().nullable(),
  profilePhotoUrl: z.string().nullable(),
  avatarUrl: z.string().nullable(),
};
