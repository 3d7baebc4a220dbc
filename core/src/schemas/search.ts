/** The search API's contract (docs/product.md, Map): `GET /api/search?q=…&moods=…`. */
import { z } from 'zod';
import { SEARCH_MAX, SEARCH_MAX_RESULTS, SEARCH_MIN } from '../limits.ts';
import { MESSAGES } from '../messages.ts';
import { MOODS } from '../moods.ts';
import { parseMoodSelection } from '../search.ts';
import { postSchema } from './post.ts';

export * from '../search.ts';

/** A `moods` value: at most every mood's name with commas, and a handful of repetitions. */
const MOODS_PARAM_MAX = 200;
const moodsParam = z.string().max(MOODS_PARAM_MAX, { abort: true });

/**
 * Search parameters: `q` trimmed, 2 to 100 characters; `moods` a comma list (or repeated
 * parameter) of moods, unknown ones ignored, none meaning all five. A `moods` that is not text
 * (or too long) is a bad request rather than "all five".
 */
export const searchQuerySchema = z.object({
  q: z
    .string({ error: MESSAGES.search_length })
    .trim()
    // Two UTF-16 units at most per character: a longer q is refused before it is counted.
    .max(SEARCH_MAX * 2, { error: MESSAGES.search_length, abort: true })
    .refine((v) => {
      const length = Array.from(v).length;
      return length >= SEARCH_MIN && length <= SEARCH_MAX;
    }, MESSAGES.search_length),
  moods: z
    .union([moodsParam, z.array(moodsParam).max(MOODS.length * 2, { abort: true })], { error: MESSAGES.bad_request })
    .optional()
    .transform((v) => parseMoodSelection(v)),
});
export type SearchQuery = z.infer<typeof searchQuerySchema>;

/** The answer: at most 10 live posts, newest first. */
export const searchResponseSchema = z.object({ results: z.array(postSchema).max(SEARCH_MAX_RESULTS) });
export type SearchResponse = z.infer<typeof searchResponseSchema>;
