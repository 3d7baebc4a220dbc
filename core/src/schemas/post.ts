/**
 * The posts API's contract (docs/product.md, Posts): the create input shared by
 * the create form and the server, the post as the API returns it, and every posts route's
 * params, query and answer. The server declares them on its routes; the web parses with them.
 */
import { z } from 'zod';
import { POST_TEXT_MAX } from '../limits.ts';
import { MESSAGES } from '../messages.ts';
import { MOODS } from '../moods.ts';
import { POST_CARDS_MAX } from '../contract.ts';
import { pointShape, tierFlagsShape } from './shapes.ts';
export { POST_CARDS_MAX } from '../contract.ts';

const coordinate = (max: number) =>
  z
    .number({
      error: (issue) => (issue.input === undefined ? MESSAGES.location_required : MESSAGES.invalid_coordinates),
    })
    .finite(MESSAGES.invalid_coordinates)
    .min(-max, MESSAGES.invalid_coordinates)
    .max(max, MESSAGES.invalid_coordinates);

export const createPostSchema = z.object({
  category: z.enum(MOODS, { error: MESSAGES.category_invalid }),
  content: z.string({ error: MESSAGES.content_too_long }).max(POST_TEXT_MAX, MESSAGES.content_too_long).default(''),
  latitude: coordinate(90),
  longitude: coordinate(180),
  imageUploadId: z.uuid({ error: MESSAGES.upload_failed }).optional(),
  audioUploadId: z.uuid({ error: MESSAGES.upload_failed }).optional(),
  usePulseEffect: z.boolean().default(false),
  /**
   * 'Position approximative': the post is published at its ~1 km cell's point, never
   * at the exact one (server/src/modules/posts/approximate.ts).
   */
  approximate: z.boolean({ error: MESSAGES.bad_request }).default(false),
});
export type CreatePostInput = z.infer<typeof createPostSchema>;
/** What the web sends: defaults (content '', no pulse) may be left out. */
export type CreatePostBody = z.input<typeof createPostSchema>;

/** A post's or a comment's author, as the API returns it. */
export const authorSchema = z.object({
  username: z.string(),
  photoUrl: z.string().nullable(),
  ...tierFlagsShape,
});
export type AuthorDto = z.infer<typeof authorSchema>;

/** The post as the API returns it (the publication's columns, camelCase). */
export const postSchema = z.object({
  id: z.string(),
  userId: z.string(),
  category: z.enum(MOODS),
  content: z.string(),
  /** Voice-only posts store 'Message vocal', which is never displayed. */
  isVoiceOnly: z.boolean(),
  ...pointShape,
  nickname: z.string(),
  /** ISO 8601, UTC. */
  createdAt: z.string(),
  imageUrl: z.string().nullable(),
  thumbnailUrl: z.string().nullable(),
  mediaUrls: z.array(z.string()),
  audioUrl: z.string().nullable(),
  audioDuration: z.number().nullable(),
  hasPulseEffect: z.boolean(),
  commentsCount: z.number(),
  likesCount: z.number(),
  isLikedByUser: z.boolean(),
  author: authorSchema,
  /** Published at its cell's point ('Position approximative'), not where it was made. */
  approximate: z.boolean().default(false),
});
export type PostDto = z.infer<typeof postSchema>;

/**
 * A post as the map draws it: where, which mood, pulse or not, whose photo, when.
 * The feed, the changes poll and the realtime `post.created` carry only this; the card (text,
 * media, counts, the viewer's like) is read on open with `GET /api/posts/:id` or, for a 100 m
 * group's list, `GET /api/posts/cards?ids=`. Its fields are the post's own, so the two cannot
 * disagree; `nickname` is the author's username when the post was made (stored
 * with the post). `photoUrl` is the author's current photo, stored with the post and kept
 * current when the profile changes.
 */
export const markerSchema = postSchema
  .pick({
    id: true,
    userId: true,
    category: true,
    latitude: true,
    longitude: true,
    nickname: true,
    hasPulseEffect: true,
    createdAt: true,
  })
  .extend({ photoUrl: z.string().nullable() });
export type MarkerDto = z.infer<typeof markerSchema>;

/** `:id` of every route about one post (or one comment). */
export const idParamsSchema = z.object({ id: z.uuid() });

/** `GET /api/posts`: every live post, newest first. */
export const postsFeedResponseSchema = z.object({ posts: z.array(postSchema), serverTime: z.string() });
export type PostsFeed = z.infer<typeof postsFeedResponseSchema>;
/** `GET /api/posts/:id`, `POST /api/posts` (201). */
export const postResponseSchema = z.object({ post: postSchema });
/** `GET /api/posts/cards?ids=a,b,c`: the live posts among those ids, newest first (gone ones are left out). */
export const postCardsQuerySchema = z.object({
  ids: z
    .string({ error: MESSAGES.bad_request })
    .max(POST_CARDS_MAX * 37, MESSAGES.bad_request)
    .transform((v) => [...new Set(v.split(',').filter(Boolean))])
    .pipe(
      z
        .array(z.uuid({ error: MESSAGES.bad_request }))
        .min(1, MESSAGES.bad_request)
        .max(POST_CARDS_MAX, MESSAGES.bad_request),
    ),
});
export const postCardsResponseSchema = z.object({ posts: z.array(postSchema) });
/** `GET /api/posts/mine/active`: the caller's live post, or null. */
export const activePostResponseSchema = z.object({ post: postSchema.nullable() });

/** `POST /api/uploads/post-image` (201). */
export const imageUploadResponseSchema = z.object({
  uploadId: z.string(),
  url: z.string(),
  thumbnailUrl: z.string().nullable(),
});
export type ImageUpload = z.infer<typeof imageUploadResponseSchema>;
/** `POST /api/uploads/voice` (201): the duration in seconds as the server measured it. */
export const voiceUploadResponseSchema = z.object({ uploadId: z.string(), url: z.string(), duration: z.number() });
export type VoiceUpload = z.infer<typeof voiceUploadResponseSchema>;

// The map's feed: GET /api/posts/viewport and GET /api/posts/changes.

const viewportNumber = z
  .string({ error: MESSAGES.invalid_coordinates })
  .trim()
  .min(1, MESSAGES.invalid_coordinates)
  .transform(Number)
  .pipe(z.number({ error: MESSAGES.invalid_coordinates }));
const viewportLatitude = viewportNumber.pipe(
  z.number().min(-90, MESSAGES.invalid_coordinates).max(90, MESSAGES.invalid_coordinates),
);

/**
 * The viewport's query string. Longitudes may come unwrapped from MapLibre (world copies), so
 * only their type is checked here; the server wraps them. `moods` is a comma list of moods,
 * none meaning all five; an unknown one is refused with 'Catégorie invalide'.
 */
export const viewportQuerySchema = z.object({
  west: viewportNumber,
  south: viewportLatitude,
  east: viewportNumber,
  north: viewportLatitude,
  zoom: viewportNumber.pipe(z.number().min(0, MESSAGES.invalid_coordinates).max(22, MESSAGES.invalid_coordinates)),
  moods: z
    .string({ error: MESSAGES.category_invalid })
    .optional()
    .refine(
      (v) =>
        (v ?? '')
          .split(',')
          .map((m) => m.trim())
          .filter(Boolean)
          .every((m) => (MOODS as readonly string[]).includes(m)),
      MESSAGES.category_invalid,
    ),
});
export type ViewportQuery = z.infer<typeof viewportQuerySchema>;

/** A server-side cluster of the zoomed-out map: its centre, count and count per mood. */
export const clusterSchema = z.object({
  id: z.string(),
  ...pointShape,
  count: z.number(),
  moods: z.record(z.enum(MOODS), z.number()),
});
export type ClusterDto = z.infer<typeof clusterSchema>;

export const viewportResponseSchema = z.object({
  points: z.array(markerSchema),
  clusters: z.array(clusterSchema),
  /** Opaque: the next `since` of the changes feed. */
  cursor: z.string(),
  /** The database time the answer was read at (clients derive their clock offset from it). */
  serverTime: z.string(),
});
export type ViewportAnswer = z.infer<typeof viewportResponseSchema>;

/**
 * The cursor is decoded by the server; here only its type (one string, not a repeated parameter)
 * and a bound on its length (it holds a database snapshot: a few hundred characters at most).
 * The view (the same bounds as the viewport's) scopes `created` to the posts inside it; without
 * it the answer covers the world.
 */
export const changesQuerySchema = z.object({
  since: z.string().max(1024),
  west: viewportNumber.optional(),
  south: viewportLatitude.optional(),
  east: viewportNumber.optional(),
  north: viewportLatitude.optional(),
});

export const changesResponseSchema = z.object({
  created: z.array(markerSchema),
  deleted: z.array(z.string()),
  cursor: z.string(),
  serverTime: z.string(),
});
export type ChangesAnswer = z.infer<typeof changesResponseSchema>;
