/**
 * An uploaded image's magic number must match the declared type. A PNG
 * sent as `image/jpeg`, or a GIF as `image/png`, is a disguised file and is refused, even
 * though the pixels would be re-encoded anyway: an upload that lies about itself is not taken.
 *
 *   - a declared type that is not JPEG, PNG, GIF or WebP → 400 'Type de fichier non autorisé…'
 *   - bytes that are none of those → the same 400
 *   - both allowed but different → 400 'Erreur de validation pour {file}' (the caller's error)
 *
 * Voice messages are not concerned (the caller skips them): the rule is about images, and the
 * voice check reads the WebM header itself (audio.ts); browsers label the same recording
 * `audio/webm`, `video/webm` or nothing at all.
 */
import type { AppError } from '../../errors.ts';
import { appError } from '../../errors.ts';
import { detectImageType } from './images.ts';

/** Names browsers and old systems give to the four accepted types. */
const ALIASES: Record<string, string> = {
  'image/jpg': 'image/jpeg',
  'image/pjpeg': 'image/jpeg',
  'image/x-png': 'image/png',
  'image/apng': 'image/png',
};
const ACCEPTED = new Set(['image/jpeg', 'image/png', 'image/gif', 'image/webp']);

/** `image/JPEG; charset=x` → `image/jpeg`. */
export function normaliseMime(declared: string | undefined): string {
  const base = (declared ?? '').split(';', 1)[0].trim().toLowerCase();
  return ALIASES[base] ?? base;
}

export async function checkDeclaredType(
  declared: string | undefined,
  body: Buffer,
  mismatch: () => AppError,
): Promise<void> {
  const type = normaliseMime(declared);
  if (!ACCEPTED.has(type)) throw appError(400, 'image_type_invalid');
  if ((await detectImageType(body)) !== type) throw mismatch();
}
