/**
 * A tiny EBML/WebM writer for fixtures: EBML header, Segment (known or unknown size), Info
 * (TimecodeScale, optional Duration), Tracks (one Opus track), Clusters of SimpleBlocks or
 * BlockGroups. The frames are filler bytes, not Opus: the duration scan only reads structure.
 * `live: true` writes what Chrome's MediaRecorder writes: Segment and Clusters of unknown
 * size and no Duration.
 */

/** An ID with its marker bits, as written: 0x1A45DFA3 → 4 bytes. */
function idBytes(id: number): Buffer {
  const bytes: number[] = [];
  for (let v = id; v > 0; v = Math.floor(v / 256)) bytes.unshift(v & 0xff);
  return Buffer.from(bytes);
}

/** A data size vint of the smallest length (or `length` bytes). */
export function sizeVint(size: number, length?: number): Buffer {
  let len = length ?? 1;
  while (!length && size >= 2 ** (7 * len) - 1) len++;
  const out = Buffer.alloc(len);
  let v = size;
  for (let i = len - 1; i >= 0; i--) {
    out[i] = v & 0xff;
    v = Math.floor(v / 256);
  }
  out[0] |= 0x80 >> (len - 1);
  return out;
}

/** The 8-byte "unknown size" MediaRecorder writes: 01 FF FF FF FF FF FF FF. */
export const UNKNOWN_SIZE = Buffer.from([0x01, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]);

export function element(id: number, payload: Buffer | Buffer[], options: { unknownSize?: boolean } = {}): Buffer {
  const body = Array.isArray(payload) ? Buffer.concat(payload) : payload;
  return Buffer.concat([idBytes(id), options.unknownSize ? UNKNOWN_SIZE : sizeVint(body.length), body]);
}

export function uintElement(id: number, value: number): Buffer {
  const bytes: number[] = [];
  for (let v = value; v > 0 || bytes.length === 0; v = Math.floor(v / 256)) bytes.unshift(v & 0xff);
  return element(id, Buffer.from(bytes));
}

export function floatElement(id: number, value: number): Buffer {
  const b = Buffer.alloc(8);
  b.writeDoubleBE(value);
  return element(id, b);
}

export function stringElement(id: number, value: string): Buffer {
  return element(id, Buffer.from(value, 'latin1'));
}

function blockPayload(track: number, relative: number, flags: number, frameBytes: number): Buffer {
  const head = Buffer.alloc(3);
  head.writeInt16BE(relative, 0);
  head[2] = flags;
  return Buffer.concat([sizeVint(track), head, Buffer.alloc(frameBytes, 0x5a)]);
}

export interface ClusterSpec {
  /** Cluster Timecode, in TimecodeScale units. */
  timecode: number;
  /** Block timecodes relative to the cluster's (signed 16 bits). */
  blocks: number[];
}

export interface WebmSpec {
  docType?: string;
  /** Nanoseconds per timecode unit; omitted → the element is not written (default 1 ms). */
  timecodeScale?: number;
  /** Info/Duration, in TimecodeScale units. */
  duration?: number;
  live?: boolean;
  clusters: ClusterSpec[];
  /** 'simple' (SimpleBlock, MediaRecorder) or 'group' (BlockGroup → Block + BlockDuration). */
  blocks?: 'simple' | 'group';
  /** BlockDuration written in BlockGroups, in TimecodeScale units. */
  blockDuration?: number;
  frameBytes?: number;
  /** Track type (2 audio, 1 video) and codec. */
  trackType?: number;
  codecId?: string;
}

export function writeWebm(spec: WebmSpec): Buffer {
  const live = spec.live ?? false;
  const frameBytes = spec.frameBytes ?? 80;
  const header = element(0x1a45dfa3, [
    uintElement(0x4286, 1), // EBMLVersion
    uintElement(0x42f7, 1), // EBMLReadVersion
    uintElement(0x42f2, 4), // EBMLMaxIDLength
    uintElement(0x42f3, 8), // EBMLMaxSizeLength
    stringElement(0x4282, spec.docType ?? 'webm'),
    uintElement(0x4287, 4), // DocTypeVersion
    uintElement(0x4285, 2), // DocTypeReadVersion
  ]);
  const info = element(0x1549a966, [
    ...(spec.timecodeScale !== undefined ? [uintElement(0x2ad7b1, spec.timecodeScale)] : []),
    stringElement(0x4d80, 'moodmap-test'), // MuxingApp
    stringElement(0x5741, 'moodmap-test'), // WritingApp
    ...(spec.duration !== undefined ? [floatElement(0x4489, spec.duration)] : []),
  ]);
  const tracks = element(0x1654ae6b, [
    element(0xae, [
      uintElement(0xd7, 1), // TrackNumber
      uintElement(0x73c5, 12345), // TrackUID
      uintElement(0x83, spec.trackType ?? 2), // TrackType
      stringElement(0x86, spec.codecId ?? 'A_OPUS'),
      element(0xe1, [floatElement(0xb5, 48000), uintElement(0x9f, 1)]), // Audio: SamplingFrequency, Channels
    ]),
  ]);
  const clusters = spec.clusters.map((cluster) => {
    const blocks = cluster.blocks.map((relative) =>
      spec.blocks === 'group'
        ? element(0xa0, [
            element(0xa1, blockPayload(1, relative, 0x00, frameBytes)),
            ...(spec.blockDuration !== undefined ? [uintElement(0x9b, spec.blockDuration)] : []),
          ])
        : element(0xa3, blockPayload(1, relative, 0x80, frameBytes)),
    );
    return element(0x1f43b675, [uintElement(0xe7, cluster.timecode), ...blocks], { unknownSize: live });
  });
  const segment = element(0x18538067, [info, tracks, ...clusters], { unknownSize: live });
  return Buffer.concat([header, segment]);
}

/**
 * A recording like MediaRecorder's: one 20 ms Opus frame per SimpleBlock, a new Cluster
 * every `clusterMs`, timecodes in milliseconds. The last frame ends at exactly `seconds`.
 */
export function recording(
  seconds: number,
  options: Partial<WebmSpec> & { frameMs?: number; clusterMs?: number } = {},
): Buffer {
  const frameMs = options.frameMs ?? 20;
  const clusterMs = options.clusterMs ?? 5000;
  const frames = Math.round((seconds * 1000) / frameMs);
  const clusters: ClusterSpec[] = [];
  for (let i = 0; i < frames; i++) {
    const t = i * frameMs;
    const clusterStart = Math.floor(t / clusterMs) * clusterMs;
    if (clusters.length === 0 || clusters[clusters.length - 1].timecode !== clusterStart)
      clusters.push({ timecode: clusterStart, blocks: [] });
    clusters[clusters.length - 1].blocks.push(t - clusterStart);
  }
  return writeWebm({ live: true, timecodeScale: 1_000_000, ...options, clusters });
}
