/** `GET /media/<key>`: the local media store's files (images, voice messages), bytes not JSON. */
import { z } from 'zod';

/** The key after /media/; only keys the store could have written are served (else 404). */
export const mediaKeyParamsSchema = z.object({ '*': z.string() });
export type MediaKeyParams = z.infer<typeof mediaKeyParamsSchema>;
