/**
 * The hostile values the route fuzz draws from: shapes that broke this API or servers like it.
 * Big values are kept as small recipes (`Long`, `RawJson`) and only built
 * when a request is sent, so thousands of sampled requests stay cheap to hold and a failure
 * prints `<'a' × 1000000>` rather than a megabyte.
 */
import fc from 'fast-check';

/** A string of `count` copies of `unit`, built on demand. */
export class Long {
  readonly unit: string;
  readonly count: number;
  constructor(unit: string, count: number) {
    this.unit = unit;
    this.count = count;
  }
  build(): string {
    return this.unit.repeat(this.count);
  }
  toString(): string {
    return `<${JSON.stringify(this.unit)} × ${this.count}>`;
  }
}

/** JSON text sent as is (a 200 000-deep array cannot be built as a value: stringify would overflow). */
export class RawJson {
  readonly label: string;
  private readonly make: () => string;
  constructor(label: string, make: () => string) {
    this.label = label;
    this.make = make;
  }
  build(): string {
    return this.make();
  }
  toString(): string {
    return `<${this.label}>`;
  }
}

export const deepArray = (depth: number) =>
  new RawJson(`array nested ${depth} deep`, () => '['.repeat(depth) + ']'.repeat(depth));
export const deepObject = (depth: number) =>
  new RawJson(`object nested ${depth} deep`, () => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth));

/** Own `__proto__` / `constructor` keys, as JSON.parse makes them (an object literal would set the prototype). */
const protoPolluted = JSON.parse(
  '{"__proto__":{"isAdmin":true,"role":"admin"},"constructor":{"prototype":{"isAdmin":true}}}',
) as object;

/** Body bytes a JSON value is sent as; recipes are expanded here. */
export function jsonText(value: unknown): string {
  if (value instanceof Long) return JSON.stringify(value.build());
  if (value instanceof RawJson) return value.build();
  if (Array.isArray(value)) return `[${value.map(jsonText).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    return `{${Object.keys(value)
      .map((k) => `${JSON.stringify(k)}:${jsonText((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** A short readable form of a value for failure reports. */
export function describeValue(value: unknown, max = 300): string {
  const text = describe(value);
  return text.length > max ? `${text.slice(0, max)}… (${text.length} chars)` : text;
}

function describe(value: unknown): string {
  if (value instanceof Long || value instanceof RawJson) return value.toString();
  if (Array.isArray(value)) return `[${value.map(describe).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    return `{${Object.keys(value)
      .map((k) => `${JSON.stringify(k)}:${describe((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? String(value);
}

/** Text an attacker types: control characters, encodings, injections, odd Unicode. */
export const HOSTILE_STRINGS = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  'lea\u0000@example.fr',
  '\u0000\u0000\u0000',
  '%00',
  '%E0%A4%A',
  '%',
  '%zz',
  '..%2f..%2fetc%2fpasswd',
  '../../../etc/passwd',
  '..\\..\\windows\\win.ini',
  '\u202eevil',
  '\ud800',
  '\udfff\ud800',
  'a\udfffb',
  'fin \ud83d',
  '😀',
  'é',
  'ﷺ',
  '\u0301',
  'Ⅻ',
  '\r\nSet-Cookie: x=1',
  "' OR 1=1 --",
  "admin'--",
  '"; DROP TABLE users; --',
  '1; select pg_sleep(10)',
  '<script>alert(1)</script>',
  '<<b>svg><<b>animate onbegin=alert(1) attributeName=x dur=1s>',
  '<img src=x onerror=alert(1)>',
  'javascript:alert(1)',
  '&#106;avascript:alert(1)',
  '{{7*7}}',
  '${7*7}',
  '__proto__',
  'constructor',
  'toString',
  'null',
  'undefined',
  'true',
  'NaN',
  '-1',
  '0',
  '1e309',
  '-0',
  '0x10',
  'Infinity',
  '{}',
  '[]',
  '[object Object]',
  'a'.repeat(101),
  'happy',
  'happy,love',
  'happy,\u0000',
  'lea@example.fr',
  'Soleil2024',
];

/** Dates `Date.parse` accepts and PostgreSQL refuses, and the reverse (cursors, `since`, `before`). */
export const ODD_DATES = [
  'March 7',
  'March 7, 2024 10:00',
  '-271821-04-20T00:00:00Z',
  '+275760-09-13T00:00:00Z',
  '0000-01-01T00:00:00Z',
  '0000-01-01T00:00:00.000Z',
  '-000001-01-01T00:00:00Z',
  '2024-02-30T00:00:00Z',
  '2024-13-01',
  '9999-12-31T23:59:59.999Z',
  '+010000-01-01T00:00:00Z',
  '1970-01-01T00:00:00Z',
  '2024-01-01T00:00:00+99:99',
  '2024-01-01',
  '2',
  '0',
  '-1',
  'now',
  'infinity',
  '-infinity',
  'epoch',
  'allballs',
  'Thu, 01 Jan 1970 00:00:00 GMT',
  '1e400',
  'T',
  '\u00002024-01-01',
];

export const HOSTILE_NUMBERS = [
  0,
  -0,
  -1,
  1,
  0.5,
  91,
  -91,
  181,
  -181,
  1e308,
  -1e308,
  2 ** 53 + 2,
  -(2 ** 63),
  1e-320,
  4294967296,
  99999999999,
];

const base64url = (text: string) => Buffer.from(text).toString('base64url');

/** Opaque cursors built around odd dates: the changes feed's `t:<iso>` and the conversations' `<date>|<uuid>`. */
export function cursorsFor(ids: string[]): string[] {
  const id = ids[0] ?? '00000000-0000-4000-8000-000000000000';
  return ODD_DATES.flatMap((d) => [base64url(`t:${d}`), base64url(`${d}|${id}`)]).concat([
    base64url('t:0000-01-01T00:00:00.000Z'),
    base64url('t:-271821-04-20T00:00:00.000Z'),
    base64url(`t:\u00002024`),
    base64url(`0000-01-01T00:00:00.000Z|${id}`),
    base64url(`March 7|${id}`),
    base64url(`-271821-04-20T00:00:00Z|${id}`),
    base64url(`2024-01-01T00:00:00Z|${id}\u0000`),
    base64url('|'),
    'AAAA',
    '====',
    '!!!',
    '%00',
  ]);
}

/** Characters long strings are made of: a single repeated character keeps every sanitiser pattern linear today. */
const LONG_UNITS = ['a', 'é', '😀', ' ', "'", '<', '\u0000', '0', '%'];

/** Long strings up to about 1 MB (just under and just over the 1 MB body limit). */
export const longString = fc
  .tuple(fc.constantFrom(...LONG_UNITS), fc.constantFrom(256, 4097, 65_536, 400_000, 1_000_000, 1_100_000))
  .map(([unit, count]) => new Long(unit, unit.length > 1 ? Math.floor(count / 2) : count));

/** Medium strings from dangerous fragments, short enough that a quadratic pattern still ends quickly. */
const fragments = fc.string({
  unit: fc.constantFrom(
    "'",
    '"',
    ' ',
    '\t',
    '<',
    '>',
    '/',
    'a',
    'on',
    'script',
    '--',
    '#',
    ';',
    '&#',
    '\u0000',
    '%',
    'é',
    '😀',
    '=',
    'or',
  ),
  maxLength: 400,
});

/** Any string-ish value for a field, a query parameter or a path segment. */
export const hostileString: fc.Arbitrary<string | Long> = fc.oneof(
  { arbitrary: fc.constantFrom(...HOSTILE_STRINGS), weight: 5 },
  { arbitrary: fc.constantFrom(...ODD_DATES), weight: 2 },
  { arbitrary: fc.string({ unit: 'binary', maxLength: 40 }), weight: 3 },
  { arbitrary: fc.string({ unit: 'grapheme', maxLength: 40 }), weight: 1 },
  { arbitrary: fragments, weight: 1 },
  { arbitrary: longString, weight: 1 },
);

/** A JSON value of the wrong type for any field: objects with poisoned keys, deep nests, huge numbers. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { arbitrary: hostileString, weight: 6 },
  { arbitrary: fc.constantFrom(...HOSTILE_NUMBERS), weight: 2 },
  { arbitrary: fc.constantFrom(null, true, false, [], {}, [null], ['a', 'b'], [1, 2]), weight: 2 },
  {
    arbitrary: fc.constantFrom(
      { toString: 1 },
      { valueOf: 1 },
      { toString: 'x', valueOf: null },
      { length: 1e9 },
      protoPolluted,
    ),
    weight: 2,
  },
  { arbitrary: fc.constantFrom(deepArray(200_000), deepArray(10_000), deepObject(10_000), deepArray(200)), weight: 1 },
  { arbitrary: fc.jsonValue({ maxDepth: 3 }), weight: 2 },
  { arbitrary: fc.array(hostileStringOrNumber(), { maxLength: 5 }), weight: 1 },
);

function hostileStringOrNumber(): fc.Arbitrary<unknown> {
  return fc.oneof(fc.constantFrom(...HOSTILE_STRINGS), fc.constantFrom(...HOSTILE_NUMBERS));
}
