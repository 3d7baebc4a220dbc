/** A plain object read from JSON (not null, not an array): what a frame or a payload must be. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
