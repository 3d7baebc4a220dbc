/**
 * A small EBML (Matroska/WebM) scanner: what a voice message needs — the DocType, the
 * TimecodeScale and Duration of Info, the tracks, and the time span covered by the blocks.
 *
 * Why scan blocks: Chrome's MediaRecorder writes WebM as a live stream — Segment and Clusters
 * of unknown size and no Duration element — so the only way to know how long a recording
 * lasts is to read each Cluster's Timecode and its blocks' relative timecodes.
 * https://www.matroska.org/technical/elements.html, RFC 8794 (EBML).
 *
 * Every loop advances by at least one byte and stops at the end of the buffer, so hostile
 * input costs at most one pass over it.
 */

export const EBML_MAGIC = Buffer.from([0x1a, 0x45, 0xdf, 0xa3]);

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

/** Children of Segment: inside an unknown-size Cluster, one of these ends the Cluster. */
const SEGMENT_CHILDREN = new Set<number>([ID.SeekHead, ID.Info, ID.Tracks, ID.Cluster, ID.Cues, ID.Chapters, ID.Tags, ID.Attachments, ID.EBML, ID.Segment]);

export const DEFAULT_TIMECODE_SCALE_NS = 1_000_000;

export class EbmlError extends Error {}

interface Header {
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
function readSize(buf: Buffer, pos: number): { size: number | null; length: number } | null {
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

function readHeader(buf: Buffer, pos: number): Header | null {
  const id = readId(buf, pos);
  if (!id) return null;
  const size = readSize(buf, pos + id.length);
  if (!size) return null;
  return { id: id.id, size: size.size, start: pos + id.length + size.length };
}

function readUint(buf: Buffer, start: number, size: number): number {
  let value = 0;
  for (let i = 0; i < Math.min(size, 8); i++) value = value * 256 + buf[start + i];
  return value;
}

function readFloat(buf: Buffer, start: number, size: number): number | null {
  if (size === 4) return buf.readFloatBE(start);
  if (size === 8) return buf.readDoubleBE(start);
  return null;
}

function readString(buf: Buffer, start: number, size: number): string {
  return buf.toString('latin1', start, start + size).replace(/\0+$/, '');
}

/** Calls `visit` for each child of [start, end); returns where iteration stopped. */
function children(buf: Buffer, start: number, end: number, visit: (h: Header, end: number) => boolean | void): number {
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

export interface WebmTrack {
  number: number;
  /** 1 video, 2 audio, 17 subtitle... (Matroska TrackType). */
  type: number | null;
  codecId: string | null;
}

export interface WebmScan {
  docType: string;
  timecodeScaleNs: number;
  /** Info/Duration converted to seconds, when the file has one. */
  declaredSeconds: number | null;
  tracks: WebmTrack[];
  blockCount: number;
  /** From the first block's start to the last block's end, in seconds (0 without blocks). */
  scannedSeconds: number;
}

/** Reads the EBML header and DocType; throws EbmlError when the buffer is not EBML. */
export function readDocType(buf: Buffer): { docType: string; end: number } {
  if (buf.length < 4 || !buf.subarray(0, 4).equals(EBML_MAGIC)) throw new EbmlError('no EBML magic');
  const header = readHeader(buf, 0);
  if (!header || header.size === null || header.start + header.size > buf.length) throw new EbmlError('bad EBML header');
  let docType = '';
  const end = header.start + header.size;
  children(buf, header.start, end, (h) => {
    if (h.id === ID.DocType && h.size !== null) docType = readString(buf, h.start, h.size);
  });
  return { docType, end };
}

export function scanWebm(buf: Buffer): WebmScan {
  const { docType, end: headerEnd } = readDocType(buf);
  let pos = headerEnd;
  // Void elements may sit between the header and the Segment.
  let segment = readHeader(buf, pos);
  while (segment && segment.id === ID.Void && segment.size !== null) {
    pos = segment.start + segment.size;
    segment = readHeader(buf, pos);
  }
  if (!segment || segment.id !== ID.Segment) throw new EbmlError('no Segment');
  const segmentEnd = segment.size === null ? buf.length : Math.min(buf.length, segment.start + segment.size);

  let timecodeScaleNs = DEFAULT_TIMECODE_SCALE_NS;
  let declaredDuration: number | null = null;
  const tracks: WebmTrack[] = [];
  // Block times are collected in timecode units and scaled at the end: Info may follow Clusters.
  let blockCount = 0;
  let minStart = Infinity;
  let maxStart = -Infinity;
  let maxEnd = -Infinity;
  let lastGap = 0;
  let previous: number | null = null;

  const addBlock = (time: number, duration: number | null) => {
    blockCount++;
    if (previous !== null && time > previous) lastGap = time - previous;
    previous = time;
    minStart = Math.min(minStart, time);
    maxStart = Math.max(maxStart, time);
    if (duration !== null) maxEnd = Math.max(maxEnd, time + duration);
  };

  /** Track number vint, then the signed 16-bit timecode relative to the Cluster's. */
  const blockTimecode = (start: number, size: number): number | null => {
    const track = readSize(buf, start);
    if (!track || track.size === null || track.length + 3 > size) return null;
    return buf.readInt16BE(start + track.length);
  };

  /** Scans a Cluster's children; for an unknown size, stops at the next Segment-level element. */
  const scanCluster = (start: number, end: number, unknownSize: boolean): number => {
    let clusterTime = 0;
    let p = start;
    while (p < end) {
      const h = readHeader(buf, p);
      if (!h) return end;
      if (unknownSize && SEGMENT_CHILDREN.has(h.id)) return p;
      if (h.size === null) return end; // only Segment and Cluster may be live-sized
      const childEnd = h.start + h.size;
      if (childEnd > end) return end; // truncated last element of a stream
      if (h.id === ID.Timecode) clusterTime = readUint(buf, h.start, h.size);
      else if (h.id === ID.SimpleBlock) {
        const rel = blockTimecode(h.start, h.size);
        if (rel !== null) addBlock(clusterTime + rel, null);
      } else if (h.id === ID.BlockGroup) {
        let rel: number | null = null;
        let duration: number | null = null;
        children(buf, h.start, childEnd, (c) => {
          if (c.size === null) return false;
          if (c.id === ID.Block) rel = blockTimecode(c.start, c.size);
          else if (c.id === ID.BlockDuration) duration = readUint(buf, c.start, c.size);
        });
        if (rel !== null) addBlock(clusterTime + rel, duration);
      }
      p = childEnd;
    }
    return end;
  };

  pos = segment.start;
  while (pos < segmentEnd) {
    const h = readHeader(buf, pos);
    if (!h) break;
    if (h.id === ID.Cluster) {
      const end = h.size === null ? segmentEnd : Math.min(segmentEnd, h.start + h.size);
      const next = scanCluster(h.start, end, h.size === null);
      pos = h.size === null ? next : h.start + h.size;
      continue;
    }
    if (h.size === null) break; // an unknown-size element we cannot skip
    const end = h.start + h.size;
    if (end > segmentEnd) break;
    if (h.id === ID.Info) {
      children(buf, h.start, end, (c) => {
        if (c.size === null) return false;
        if (c.id === ID.TimecodeScale && c.size > 0) timecodeScaleNs = readUint(buf, c.start, c.size) || DEFAULT_TIMECODE_SCALE_NS;
        else if (c.id === ID.Duration) declaredDuration = readFloat(buf, c.start, c.size);
      });
    } else if (h.id === ID.Tracks) {
      children(buf, h.start, end, (entry, entryEnd) => {
        if (entry.id !== ID.TrackEntry || entry.size === null) return;
        const track: WebmTrack = { number: 0, type: null, codecId: null };
        children(buf, entry.start, entryEnd, (c) => {
          if (c.size === null) return false;
          if (c.id === ID.TrackNumber) track.number = readUint(buf, c.start, c.size);
          else if (c.id === ID.TrackType) track.type = readUint(buf, c.start, c.size);
          else if (c.id === ID.CodecID) track.codecId = readString(buf, c.start, c.size);
        });
        tracks.push(track);
      });
    }
    pos = end;
  }

  const toSeconds = (units: number) => (units * timecodeScaleNs) / 1e9;
  let scannedSeconds = 0;
  if (blockCount > 0) {
    // With BlockDurations, blocks end where they say; without (SimpleBlocks), the last block
    // lasts as long as the gap before it: one codec frame.
    const end = maxEnd > -Infinity ? Math.max(maxEnd, maxStart) : maxStart + lastGap;
    scannedSeconds = toSeconds(end - minStart);
  }
  const declared: number | null = declaredDuration;
  return {
    docType,
    timecodeScaleNs,
    declaredSeconds: declared !== null && Number.isFinite(declared) ? toSeconds(declared) : null,
    tracks,
    blockCount,
    scannedSeconds,
  };
}
