/**
 * Rebuilds rivers.json.gz, the offline basemap's river centre lines, from the CIA World Data
 * Bank II rivers as GSHHG ships them for GMT (Debian's gmt-gshhg-full package, LGPL-3+), read with
 * ncdump (netcdf-bin). npm has no river line data (see README.md), so the derived lines are kept
 * in the repository and this script says how they were made:
 *
 *   apt-get install gmt-gshhg-full netcdf-bin
 *   node server/geodata/rivers/build.mjs [/usr/share/gmt-gshhg/binned_river_f.nc]
 *
 * GMT stores each line cut into the 1° bins it crosses, each point as 16-bit offsets from its
 * bin's south-west corner. Here the pieces are put back together (a piece ends where the next one
 * of the same level starts), quantised to 1e-4° (~11 m, finer than the data's own accuracy),
 * simplified to TOLERANCE (the server's deepest tile, z10, is cut to ~20 m: points closer to the
 * line than that were never drawn) and written as delta-encoded integers, which gzip packs to a
 * few bytes a point.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';

const source = process.argv[2] ?? '/usr/share/gmt-gshhg/binned_river_f.nc';
const output = new URL('./rivers.json.gz', import.meta.url);
/** GMT's river levels are 1-based in its docs and 0-based in the file; 0–3 are the permanent rivers (river-lakes, major, additional major, additional): intermittent rivers and canals are left out. */
const MAX_LEVEL = 3;
const SCALE = 1e4;
/** Douglas–Peucker tolerance, in 1/SCALE degrees (1.5 ≈ 15 m). */
const TOLERANCE = 1.5;

function variable(name) {
  const dump = execFileSync('ncdump', ['-v', name, source], { maxBuffer: 1 << 30 }).toString();
  const data = dump.slice(dump.indexOf('data:'));
  return Int32Array.from(
    data
      .slice(data.indexOf('=') + 1, data.lastIndexOf(';'))
      .split(',')
      .map(Number),
  );
}

const binDegrees = variable('Bin_size_in_minutes')[0] / 60;
const binsPerRow = variable('N_bins_in_360_longitude_range')[0];
const firstSegment = variable('Id_of_first_segment_in_a_bin');
const segmentCount = variable('N_segments_in_a_bin');
const pointCount = variable('N_points_for_a_segment');
const level = variable('Hierarchial_level_of_a_segment');
const firstPoint = variable('Id_of_first_point_in_a_segment');
const dx = variable('Relative_longitude_from_SW_corner_of_bin');
const dy = variable('Relative_latitude_from_SW_corner_of_bin');

/** Pieces as quantised [x, y] integer pairs, by level. */
const pieces = [];
for (let bin = 0; bin < firstSegment.length; bin++) {
  const west = (bin % binsPerRow) * binDegrees;
  const south = 90 - (Math.floor(bin / binsPerRow) + 1) * binDegrees;
  // Bins run east from Greenwich over 360°: the western hemisphere's are past 180.
  const lon0 = west >= 180 ? west - 360 : west;
  for (let s = firstSegment[bin]; s < firstSegment[bin] + segmentCount[bin]; s++) {
    if (level[s] > MAX_LEVEL) continue;
    const points = [];
    for (let p = firstPoint[s]; p < firstPoint[s] + pointCount[s]; p++) {
      // Stored as signed shorts, meant as unsigned fractions of the bin.
      const x = Math.round((lon0 + ((dx[p] & 0xffff) / 65535) * binDegrees) * SCALE);
      const y = Math.round((south + ((dy[p] & 0xffff) / 65535) * binDegrees) * SCALE);
      const last = points[points.length - 1];
      if (!last || last[0] !== x || last[1] !== y) points.push([x, y]);
    }
    if (points.length > 1) pieces.push({ level: level[s], points });
  }
}

/** Joins pieces end to start (same level), so a river is one line instead of one per bin. */
function join(all) {
  const key = (p, lvl) => `${lvl}:${p[0]},${p[1]}`;
  const byStart = new Map();
  for (const piece of all) {
    const k = key(piece.points[0], piece.level);
    if (!byStart.has(k)) byStart.set(k, []);
    byStart.get(k).push(piece);
  }
  const used = new Set();
  const hasPredecessor = new Set();
  for (const piece of all) {
    const next = byStart.get(key(piece.points[piece.points.length - 1], piece.level));
    if (next?.some((n) => n !== piece)) hasPredecessor.add(next.find((n) => n !== piece));
  }
  const lines = [];
  const follow = (start) => {
    const points = [...start.points];
    used.add(start);
    for (;;) {
      const next = byStart.get(key(points[points.length - 1], start.level))?.find((n) => !used.has(n));
      if (!next) break;
      used.add(next);
      points.push(...next.points.slice(1));
    }
    lines.push({ level: start.level, points });
  };
  for (const piece of all) if (!used.has(piece) && !hasPredecessor.has(piece)) follow(piece);
  for (const piece of all) if (!used.has(piece)) follow(piece); // loops (river-lake outlines)
  return lines;
}

/** Douglas–Peucker on integer points (degrees treated as planar: the tolerance is a few metres). */
function simplify(points) {
  const keep = new Uint8Array(points.length);
  keep[0] = keep[points.length - 1] = 1;
  const stack = [[0, points.length - 1]];
  while (stack.length > 0) {
    const [first, last] = stack.pop();
    const [ax, ay] = points[first];
    const [bx, by] = points[last];
    const length = Math.hypot(bx - ax, by - ay);
    let farthest = -1;
    let distance = TOLERANCE;
    for (let i = first + 1; i < last; i++) {
      const [px, py] = points[i];
      const d =
        length === 0 ? Math.hypot(px - ax, py - ay) : Math.abs((bx - ax) * (ay - py) - (ax - px) * (by - ay)) / length;
      if (d > distance) {
        distance = d;
        farthest = i;
      }
    }
    if (farthest > 0) {
      keep[farthest] = 1;
      stack.push([first, farthest], [farthest, last]);
    }
  }
  return points.filter((_, i) => keep[i]);
}

const lines = join(pieces).map((line) => ({ ...line, points: simplify(line.points) }));
const encoded = lines.map(({ level: lvl, points }) => {
  const flat = [lvl, points[0][0], points[0][1]];
  for (let i = 1; i < points.length; i++) flat.push(points[i][0] - points[i - 1][0], points[i][1] - points[i - 1][1]);
  return flat;
});
const json = JSON.stringify({
  source: 'CIA World Data Bank II rivers, from GSHHG 2.3.7 (binned_river_f.nc), LGPL-3+',
  scale: SCALE,
  format: 'each line: [level, x0, y0, dx1, dy1, …], integers in 1/scale degrees, deltas from the previous point',
  lines: encoded,
});
const gz = gzipSync(json, { level: 9 });
writeFileSync(output, gz);
const points = lines.reduce((n, l) => n + l.points.length, 0);
console.log(
  `${pieces.length} pieces → ${lines.length} lines, ${points} points; ${(json.length / 1e6).toFixed(1)} MB JSON, ${(gz.length / 1e6).toFixed(2)} MB gzip`,
);
