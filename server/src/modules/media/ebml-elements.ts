/**
 * EBML's building blocks (RFC 8794): element IDs and sizes as variable-length integers, an
 * element's header, its value as an unsigned integer, a float or a string, and the walk over an
 * element's children. A header that does not fit in the buffer reads as null.
 */

export const ID = {
  EBML: 0x1a45dfa3,
  DocType: 0x4282,
  Segment: 0x18538067,
  SeekHead: 0x114d9b74,
  Info: 0x1549a966,
  TimecodeScale: 0x2ad7b1,
  Duration: 0x4489,
  Tracks: 0x1654ae6b,
  TrackEntry: 0xae,
  TrackNumber: 0xd7,
  TrackType: 0x83,
  CodecID: 0x86,
  Cluster: 0x1f43b675,
  Timecode: 0xe7,
  SimpleBlock: 0xa3,
  BlockGroup: 0xa0,
  Block: 0xa1,
  BlockDuration: 0x9b,
  Cues: 0x1c53bb6b,
  Chapters: 0x1043a770,
  Tags: 0x1254c367,
  Attachments: 0x1941a469,
  Void: 0xec,
} as const;

export interface Header {
  id: number;
  /** Payload size in bytes; null when the size is "unknown" (all value bits set: live streams). */
  size: number | null;
  /** Offset of the payload. */
  start: number;
}

/** An element ID: 1 to 4 bytes, marker bits kept (0x1A45DFA3). */
function readId(buf: Buffer, pos: number): { id: number; length: number } | null {
  if (pos >= buf.length) return null;
  const first = buf[pos];
  const length = first >= 0x80 ? 1 : first >= 0x40 ? 2 : first >= 0x20 ? 3 : first >= 0x10 ? 4 : 0;
  if (length === 0 || pos + length > buf.length) return null;
  let id = 0;
  for (let i = 0; i < length; i++) id = id * 256 + buf[pos + i];
  return { id, length };
}

/** A data size: 1 to 8 bytes; all value bits set means unknown. */
export function readSize(buf: Buffer, pos: number): { size: number | null; length: number } | null {
  if (pos >= buf.length) return null;
  const first = buf[pos];
  let length = 1;
  while (length <= 8 && !(first & (0x80 >> (length - 1)))) length++;
  if (length > 8 || pos + length > buf.length) return null;
  let value = first & (0xff >> length);
  let allOnes = value === 0xff >> length;
  for (let i = 1; i < length; i++) {
    const byte = buf[pos + i];
    value = value * 256 + byte;
    if (byte !== 0xff) allOnes = false;
  }
  return { size: allOnes ? null : value, length };
}

export function readHeader(buf: Buffer, pos: number): Header | null {
  const id = readId(buf, pos);
  if (!id) return null;
  const size = readSize(buf, pos + id.length);
  if (!size) return null;
  return { id: id.id, size: size.size, start: pos + id.length + size.length };
}

export function readUint(buf: Buffer, start: number, size: number): number {
  let value = 0;
  for (let i = 0; i < Math.min(size, 8); i++) value = value * 256 + buf[start + i];
  return value;
}

export function readFloat(buf: Buffer, start: number, size: number): number | null {
  if (size === 4) return buf.readFloatBE(start);
  if (size === 8) return buf.readDoubleBE(start);
  return null;
}

export function readString(buf: Buffer, start: number, size: number): string {
  return buf.toString('latin1', start, start + size).replace(/\0+$/, '');
}

/** Calls `visit` for each child of [start, end); returns where iteration stopped. */
export function children(
  buf: Buffer,
  start: number,
  end: number,
  visit: (h: Header, end: number) => boolean | void,
): number {
  let pos = start;
  while (pos < end) {
    const h = readHeader(buf, pos);
    if (!h) break;
    const childEnd = h.size === null ? end : h.start + h.size;
    if (childEnd > end) break; // truncated child: stop here
    if (visit(h, childEnd) === false) break;
    pos = childEnd;
  }
  return pos;
}
