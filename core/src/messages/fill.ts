/** Fills `{name}` placeholders of a catalogue text (kept apart so the first load can fill shell texts). */
export function fill(text: string, params: Record<string, string | number> = {}): string {
  return text.replace(/\{(\w+)\}/g, (whole, name: string) => (name in params ? String(params[name]) : whole));
}

/**
 * A count's text with French plurals: `{key}_one` for 0 and 1 when `texts` has it
 * ('1 publication'), `key` otherwise ('2 publications'). Takes the catalogue part it reads, so
 * the first load can use it on the shell's texts.
 */
export function fillCount<T extends Record<string, string>>(
  texts: T,
  key: keyof T & string,
  count: number,
  params: Record<string, string | number> = {},
): string {
  const one = texts[`${key}_one`];
  return fill(Math.abs(count) < 2 && one !== undefined ? one : texts[key], { ...params, count });
}
