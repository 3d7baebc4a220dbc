/**
 * The create form's rules as the browser applies them before sending (docs/product.md,
 * Posts): core's createPostSchema, the one the server validates with, plus
 * the rules the server applies after it (text or media required, sanitising, land).
 */
import {
  CAPITALS_WARNING_MIN_LENGTH,
  CAPITALS_WARNING_RATIO,
  MESSAGES,
  POST_IMAGE_MAX_BYTES,
  POST_IMAGE_MAX_FILES,
  POST_TEXT_MAX,
  REPEATED_CHARS_WARNING,
  createPostSchema,
  isCritical,
  t,
} from '@moodmap/core';

export const IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/gif', 'image/webp'] as const;

/** Characters as the server counts them (code points, not UTF-16 units). */
export function textLength(text: string): number {
  return Array.from(text).length;
}

export type TextWarning = 'repeated' | 'capitals';

/**
 * Warnings, not errors: 11 or more identical characters in a row, or more than 70 %
 * capitals among the letters of a text longer than 20 characters.
 */
export function textWarnings(text: string): TextWarning[] {
  const warnings: TextWarning[] = [];
  if (new RegExp(`(.)\\1{${REPEATED_CHARS_WARNING - 1},}`, 'u').test(text)) warnings.push('repeated');
  if (textLength(text.trim()) > CAPITALS_WARNING_MIN_LENGTH) {
    const letters = Array.from(text).filter((c) => c.toLowerCase() !== c.toUpperCase());
    const capitals = letters.filter((c) => c === c.toUpperCase() && c !== c.toLowerCase());
    if (letters.length > 0 && capitals.length / letters.length > CAPITALS_WARNING_RATIO) warnings.push('capitals');
  }
  return warnings;
}

export function warningMessage(warning: TextWarning): string {
  return warning === 'repeated' ? MESSAGES.create_warning_repeated : MESSAGES.create_warning_capitals;
}

/** The first problem with a picked image list, or null (type, size, empty, one file only). */
export function imageFileError(files: ArrayLike<File>): string | null {
  if (files.length > POST_IMAGE_MAX_FILES) return t('upload_too_many_files', { n: POST_IMAGE_MAX_FILES });
  const file = files[0];
  if (!file) return null;
  if (!(IMAGE_TYPES as readonly string[]).includes(file.type)) return MESSAGES.image_type_invalid;
  if (file.size === 0) return t('upload_validation_failed', { file: file.name });
  if (file.size > POST_IMAGE_MAX_BYTES) return MESSAGES.image_too_large_10mb;
  return null;
}

export interface CreateFormInput {
  category: string | null;
  content: string;
  hasImage: boolean;
  hasVoice: boolean;
  location: { latitude: number; longitude: number } | null;
  /** The land pre-check: false when the point is known to be at sea. */
  onLand: boolean | null;
}

/** The first error to show, in the order the form shows its fields, or null when the form can go. */
export function validateCreateForm(input: CreateFormInput): string | null {
  const text = input.content.trim();
  const parsed = createPostSchema.safeParse({
    category: input.category ?? undefined,
    content: text,
    latitude: input.location?.latitude,
    longitude: input.location?.longitude,
  });
  const issues = parsed.error?.issues ?? [];
  const issueOf = (field: string) => issues.find((issue) => issue.path[0] === field)?.message ?? null;
  if (issueOf('category')) return MESSAGES.category_invalid;
  if (!text && !input.hasImage && !input.hasVoice) return MESSAGES.content_required;
  // Characters as the counter shows them (code points); the schema then counts as the server does.
  if (textLength(text) > POST_TEXT_MAX) return MESSAGES.content_too_long;
  const content = issueOf('content');
  if (content) return content;
  if (text && isCritical(text)) return MESSAGES.content_forbidden;
  if (!input.location) return MESSAGES.location_required;
  const coordinates = issueOf('latitude') ?? issueOf('longitude');
  if (coordinates) return coordinates;
  if (input.onLand === false) return MESSAGES.not_on_land;
  return null;
}
