/** The create-post input (spec §5 "Publication"), shared by the create form and the server. */
import { z } from 'zod';
import { POST_TEXT_MAX } from '../limits.ts';
import { MESSAGES } from '../messages.ts';
import { MOODS } from '../moods.ts';

const coordinate = (max: number) =>
  z.number({ error: (issue) => (issue.input === undefined ? MESSAGES.location_required : MESSAGES.invalid_coordinates) })
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
});
export type CreatePostInput = z.infer<typeof createPostSchema>;

/** The post as the API returns it (spec §3 Publication, camelCase). */
export interface PostDto {
  id: string;
  userId: string;
  category: (typeof MOODS)[number];
  content: string;
  /** Voice-only posts store 'Message vocal', which is never displayed. */
  isVoiceOnly: boolean;
  latitude: number;
  longitude: number;
  nickname: string;
  createdAt: string;
  imageUrl: string | null;
  thumbnailUrl: string | null;
  mediaUrls: string[];
  audioUrl: string | null;
  audioDuration: number | null;
  hasPulseEffect: boolean;
  commentsCount: number;
  likesCount: number;
  isLikedByUser: boolean;
  author: { username: string; photoUrl: string | null; isPremium: boolean; isPro: boolean; isPlus: boolean; isMulti: boolean };
}
