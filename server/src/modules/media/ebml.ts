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
import { children, ID, readFloat, readHeader, readSize, readString, readUint, type Header } from './ebml-elements.ts';

export const EBML_MAGIC = Buffer.from([0x1a, 0x45, 0xdf, 0xa3]);

/** Children of Segment: inside an unknown-size Cluster, one of these ends the Cluster. */
const SEGMENT_CHILDREN = new Set<number>([
  ID.SeekHead,
  ID.Info,
  ID.Tracks,
  ID.Cluster,
  ID.Cues,
  ID.Chapters,
  ID.Tags,
  ID.Attachments,
  ID.EBML,
  ID.Segment,
]);

export const DEFAULT_TIMECODE_SCALE_NS = 1_000_000;

export class EbmlError extends Error {}

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
  if (!header || header.size === null || header.start + header.size > buf.length)
    throw new EbmlError('bad EBML header');
  let docType = '';
  const end = header.start + header.size;
  children(buf, header.start, end, (h) => {
    if (h.id === ID.DocType && h.size !== null) docType = readString(buf, h.start, h.size);
  });
  return { docType, end };
}

/** Block times in timecode units, collected as the Clusters are read; scaled at the end, since Info may follow the Clusters. */
function createBlockSpan() {
  let count = 0;
  let minStart = Infinity;
  let maxStart = -Infinity;
  let maxEnd = -Infinity;
  let lastGap = 0;
  let previous: number | null = null;
  return {
    add(time: number, duration: number | null): void {
      count++;
      if (previous !== null && time > previous) lastGap = time - previous;
      previous = time;
      minStart = Math.min(minStart, time);
      maxStart = Math.max(maxStart, time);
      if (duration !== null) maxEnd = Math.max(maxEnd, time + duration);
    },
    count: () => count,
    /** From the first block's start to the last block's end (0 without blocks). */
    units(): number {
      if (count === 0) return 0;
      // With BlockDurations, blocks end where they say; without (SimpleBlocks), the last block
      // lasts as long as the gap before it: one codec frame.
      const end = maxEnd > -Infinity ? Math.max(maxEnd, maxStart) : maxStart + lastGap;
      return end - minStart;
    },
  };
}

type BlockSpan = ReturnType<typeof createBlockSpan>;

/** Track number vint, then the signed 16-bit timecode relative to the Cluster's. */
function blockTimecode(buf: Buffer, start: number, size: number): number | null {
  const track = readSize(buf, start);
  if (!track || track.size === null || track.length + 3 > size) return null;
  return buf.readInt16BE(start + track.length);
}

/** A BlockGroup's block: its relative timecode and BlockDuration. */
function readBlockGroup(buf: Buffer, start: number, end: number): { rel: number | null; duration: number | null } {
  let rel: number | null = null;
  let duration: number | null = null;
  children(buf, start, end, (c) => {
    if (c.size === null) return false;
    if (c.id === ID.Block) rel = blockTimecode(buf, c.start, c.size);
    else if (c.id === ID.BlockDuration) duration = readUint(buf, c.start, c.size);
  });
  return { rel, duration };
}

/** Scans a Cluster's children; for an unknown size, stops at the next Segment-level element. Returns where it stopped. */
function scanCluster(buf: Buffer, start: number, end: number, unknownSize: boolean, blocks: BlockSpan): number {
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
      const rel = blockTimecode(buf, h.start, h.size);
      if (rel !== null) blocks.add(clusterTime + rel, null);
    } else if (h.id === ID.BlockGroup) {
      const { rel, duration } = readBlockGroup(buf, h.start, childEnd);
      if (rel !== null) blocks.add(clusterTime + rel, duration);
    }
    p = childEnd;
  }
  return end;
}

interface Info {
  timecodeScaleNs: number;
  declaredDuration: number | null;
}

function readInfo(buf: Buffer, start: number, end: number, info: Info): void {
  children(buf, start, end, (c) => {
    if (c.size === null) return false;
    if (c.id === ID.TimecodeScale && c.size > 0)
      info.timecodeScaleNs = readUint(buf, c.start, c.size) || DEFAULT_TIMECODE_SCALE_NS;
    else if (c.id === ID.Duration) info.declaredDuration = readFloat(buf, c.start, c.size);
  });
}

function readTracks(buf: Buffer, start: number, end: number, tracks: WebmTrack[]): void {
  children(buf, start, end, (entry, entryEnd) => {
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

/** The Segment after the EBML header; Void elements may sit between them. */
function findSegment(buf: Buffer, headerEnd: number): Header {
  let segment = readHeader(buf, headerEnd);
  while (segment && segment.id === ID.Void && segment.size !== null)
    segment = readHeader(buf, segment.start + segment.size);
  if (!segment || segment.id !== ID.Segment) throw new EbmlError('no Segment');
  return segment;
}

export function scanWebm(buf: Buffer): WebmScan {
  const { docType, end: headerEnd } = readDocType(buf);
  const segment = findSegment(buf, headerEnd);
  const segmentEnd = segment.size === null ? buf.length : Math.min(buf.length, segment.start + segment.size);
  const info: Info = { timecodeScaleNs: DEFAULT_TIMECODE_SCALE_NS, declaredDuration: null };
  const tracks: WebmTrack[] = [];
  const blocks = createBlockSpan();

  let pos = segment.start;
  while (pos < segmentEnd) {
    const h = readHeader(buf, pos);
    if (!h) break;
    if (h.id === ID.Cluster) {
      const end = h.size === null ? segmentEnd : Math.min(segmentEnd, h.start + h.size);
      const next = scanCluster(buf, h.start, end, h.size === null, blocks);
      pos = h.size === null ? next : h.start + h.size;
      continue;
    }
    if (h.size === null) break; // an unknown-size element we cannot skip
    const end = h.start + h.size;
    if (end > segmentEnd) break;
    if (h.id === ID.Info) readInfo(buf, h.start, end, info);
    else if (h.id === ID.Tracks) readTracks(buf, h.start, end, tracks);
    pos = end;
  }

  const toSeconds = (units: number) => (units * info.timecodeScaleNs) / 1e9;
  const declared = info.declaredDuration;
  return {
    docType,
    timecodeScaleNs: info.timecodeScaleNs,
    declaredSeconds: declared !== null && Number.isFinite(declared) ? toSeconds(declared) : null,
    tracks,
    blockCount: blocks.count(),
    scannedSeconds: toSeconds(blocks.units()),
  };
}
