/**
 * The file format of the prebuilt geo data (server/geodata/land, server/geodata/places): named
 * typed arrays in one buffer, so that loading is a decompression and a view per array — no
 * parsing, no copy, no rebuilding.
 *
 * Layout: 8 bytes of magic, a uint32 byte length, a JSON header ({ meta, sections: [{ name,
 * type, length }] }), then each section's bytes in header order, every one starting on an
 * 8-byte boundary (Flatbush.from needs it). Little-endian, as every
 * machine Node runs on. A section may be stored as differences from its previous value (integer
 * arrays that change little from one value to the next: coordinates along a ring, ascending
 * offsets), which brotli packs to about half; opening adds them up again, in place.
 */
import { brotliCompressSync, brotliDecompressSync, constants } from 'node:zlib';
import { z } from 'zod';

const MAGIC = 'MMGEO\u0000\u0000\u0001';
const ALIGN = 8;

const ARRAY_TYPES = {
  Int32Array,
  Uint8Array,
  Uint16Array,
  Uint32Array,
} as const;
type ArrayTypeName = keyof typeof ARRAY_TYPES;
export type PackedArray = Int32Array | Uint8Array | Uint16Array | Uint32Array;
type ArrayConstructorOf<T extends PackedArray> = {
  new (buffer: ArrayBuffer, byteOffset: number, length: number): T;
  readonly name: string;
  BYTES_PER_ELEMENT: number;
};

const headerSchema = z.object({
  meta: z.record(z.string(), z.unknown()),
  sections: z.array(
    z.object({
      name: z.string(),
      type: z.enum(['Int32Array', 'Uint8Array', 'Uint16Array', 'Uint32Array']),
      length: z.number().int().nonnegative(),
      deltas: z.boolean().optional(),
    }),
  ),
});

type IntegerArray = Int32Array | Uint32Array;

/** Each value minus the previous one (wrapping, so Uint32 differences survive the round trip). */
function toDeltas(array: IntegerArray): IntegerArray {
  const out = array.slice();
  for (let i = out.length - 1; i > 0; i--) out[i] = array[i] - array[i - 1];
  return out;
}

function fromDeltas(array: IntegerArray): void {
  for (let i = 1; i < array.length; i++) array[i] += array[i - 1];
}

const isArrayTypeName = (name: string): name is ArrayTypeName => Object.hasOwn(ARRAY_TYPES, name);

function typeName(array: PackedArray): ArrayTypeName {
  const name = array.constructor.name;
  if (!isArrayTypeName(name)) throw new Error(`typed-pack: unsupported array type ${name}`);
  return name;
}

const padded = (n: number) => Math.ceil(n / ALIGN) * ALIGN;

/**
 * The uncompressed bytes of a pack (what the rebuild tests compare); the sections named in
 * `deltas` (Int32Array or Uint32Array) are stored as differences.
 */
export function encodePack(
  meta: Record<string, unknown>,
  sections: Record<string, PackedArray>,
  deltas: readonly string[] = [],
): Uint8Array {
  const entries = Object.entries(sections).map(([name, array]): [string, PackedArray, boolean] => {
    if (!deltas.includes(name)) return [name, array, false];
    if (!(array instanceof Int32Array || array instanceof Uint32Array))
      throw new Error(`typed-pack: ${name} cannot be stored as deltas`);
    return [name, toDeltas(array), true];
  });
  const header = new TextEncoder().encode(
    JSON.stringify({
      meta,
      sections: entries.map(([name, array, delta]) => ({
        name,
        type: typeName(array),
        length: array.length,
        ...(delta ? { deltas: true } : {}),
      })),
    }),
  );
  let size = padded(MAGIC.length + 4 + header.length);
  for (const [, array] of entries) size += padded(array.byteLength);
  const out = new Uint8Array(size);
  out.set(new TextEncoder().encode(MAGIC), 0);
  new DataView(out.buffer).setUint32(MAGIC.length, header.length, true);
  out.set(header, MAGIC.length + 4);
  let offset = padded(MAGIC.length + 4 + header.length);
  for (const [, array] of entries) {
    out.set(new Uint8Array(array.buffer, array.byteOffset, array.byteLength), offset);
    offset += padded(array.byteLength);
  }
  return out;
}

/** Brotli at its best: slow (tens of seconds for 10 MB), but the files are built once and read at every start. */
export function compressPack(bytes: Uint8Array): Buffer {
  return brotliCompressSync(bytes, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: 11,
      [constants.BROTLI_PARAM_LGWIN]: 24,
      [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
    },
  });
}

export function decompressPack(compressed: Uint8Array): Uint8Array {
  return brotliDecompressSync(compressed);
}

export interface Pack {
  meta: Record<string, unknown>;
  /** The named array, checked to be of the expected type; throws when the file lacks it. */
  get<T extends PackedArray>(name: string, type: ArrayConstructorOf<T>): T;
}

/**
 * Views on the sections of decompressed pack bytes, without copying them. The pack takes the
 * bytes over: sections stored as deltas are summed in place, so the bytes are opened once.
 */
export function openPack(received: Uint8Array, what: string): Pack {
  // On an ArrayBuffer of their own, so that every section sits on an 8-byte boundary.
  const bytes =
    received.byteOffset === 0 && received.buffer instanceof ArrayBuffer ? received : new Uint8Array(received);
  if (!(bytes.buffer instanceof ArrayBuffer)) throw new Error(`${what}: bytes outside an ArrayBuffer`);
  const buffer = bytes.buffer;
  if (bytes.byteLength < MAGIC.length + 4 || new TextDecoder().decode(bytes.subarray(0, MAGIC.length)) !== MAGIC) {
    throw new Error(`${what}: not a geo data pack`);
  }
  const headerLength = new DataView(buffer).getUint32(MAGIC.length, true);
  const header = headerSchema.parse(
    JSON.parse(new TextDecoder().decode(bytes.subarray(MAGIC.length + 4, MAGIC.length + 4 + headerLength))),
  );
  const located = new Map<string, { type: ArrayTypeName; byteOffset: number; length: number }>();
  let offset = padded(MAGIC.length + 4 + headerLength);
  for (const { name, type, length, deltas } of header.sections) {
    const byteLength = length * ARRAY_TYPES[type].BYTES_PER_ELEMENT;
    if (offset + byteLength > bytes.byteLength) throw new Error(`${what}: section ${name} is cut short`);
    located.set(name, { type, byteOffset: offset, length });
    if (deltas) {
      if (type !== 'Int32Array' && type !== 'Uint32Array')
        throw new Error(`${what}: ${name} stored as deltas is ${type}`);
      fromDeltas(new ARRAY_TYPES[type](buffer, offset, length));
    }
    offset += padded(byteLength);
  }
  return {
    meta: header.meta,
    get(name, type) {
      const section = located.get(name);
      if (!section) throw new Error(`${what}: no section ${name}`);
      if (section.type !== type.name) throw new Error(`${what}: section ${name} is ${section.type}, not ${type.name}`);
      return new type(buffer, section.byteOffset, section.length);
    },
  };
}
