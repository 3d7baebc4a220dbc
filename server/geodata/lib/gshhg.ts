/**
 * GSHHG's full-resolution shorelines (Wessel and Smith, LGPL-3+), read from the binned netCDF
 * file GMT uses (Debian's gmt-gshhg-full package: /usr/share/gmt-gshhg/binned_GSHHS_f.nc) with
 * ncdump (netcdf-bin). Build time only: server/geodata/land/extract-gshhg.ts cuts what the land
 * check needs out of it.
 *
 * GMT stores each polygon cut into the 1° bins it crosses: each piece's points as 16-bit offsets
 * from its bin's south-west corner, in 1/65535 of the bin. Pieces of one polygon follow each
 * other: a piece ends on its bin's side where the next one starts. Here they are joined back into
 * whole rings, in degrees.
 */
import { execFileSync } from 'node:child_process';

export const GSHHG_FILE = '/usr/share/gmt-gshhg/binned_GSHHS_f.nc';

/** GSHHG levels: 1 land, 2 lake, 3 island in a lake, 4 pond on such an island. */
export interface GshhgRing {
  /** The GSHHG polygon id. */
  id: number;
  level: number;
  /** The id of the polygon this one lies in (-1 for level 1). */
  parent: number;
  /** Closed ring, lon/lat in degrees; longitudes run 0…360 (a ring crossing Greenwich may start below 0). */
  xs: Float64Array;
  ys: Float64Array;
}

/**
 * An integer variable as ncdump prints it. ncdump writes "_" for a value equal to the variable's
 * default fill value (-32767 for shorts): here it is a real offset like any other.
 */
function variable(file: string, name: string): Int32Array {
  const dump = execFileSync('ncdump', ['-v', name, file], { maxBuffer: 1 << 30 }).toString('latin1');
  const data = dump.slice(dump.indexOf('data:'));
  const body = data.slice(data.indexOf('=') + 1, data.lastIndexOf(';'));
  const values = new Int32Array((body.length >> 1) + 1);
  let count = 0;
  let value = 0;
  let sign = 1;
  let inNumber = false;
  for (let i = 0; i <= body.length; i++) {
    const c = i < body.length ? body.charCodeAt(i) : 44;
    if (c >= 48 && c <= 57) {
      value = value * 10 + c - 48;
      inNumber = true;
    } else if (c === 45) {
      sign = -1;
    } else if (c === 95) {
      value = 32767;
      sign = -1;
      inNumber = true;
    } else if (c === 44) {
      if (!inNumber) throw new Error(`ncdump ${name}: empty value`);
      values[count++] = sign * value;
      value = 0;
      sign = 1;
      inNumber = false;
    }
  }
  return values.slice(0, count);
}

/** Antarctica's ice front and grounding line (levels 5 and 6 once flagged): not used here. */
const ANTARCTICA = 5;

/** Every ring of the file but Antarctica's, joined from its bin pieces. */
export function readGshhgRings(file = GSHHG_FILE): GshhgRing[] {
  const read = (name: string) => variable(file, name);
  const binsPerRow = read('N_bins_in_360_longitude_range')[0];
  const binDegrees = read('Bin_size_in_minutes')[0] / 60;
  const firstSegment = read('Id_of_first_segment_in_a_bin');
  const segmentCount = read('N_segments_in_a_bin');
  const segmentInfo = read('Embedded_npts_levels_exit_entry_for_a_segment');
  const antarctic = read('Embedded_ANT_flag');
  const segmentPolygon = read('Id_of_GSHHS_ID');
  const firstPoint = read('Id_of_first_point_in_a_segment');
  const parents = read('Id_of_parent_polygons');
  const dx = read('Relative_longitude_from_SW_corner_of_bin');
  const dy = read('Relative_latitude_from_SW_corner_of_bin');

  // Points as integers in 1/65535 of a bin, so that joined ends compare exactly.
  const steps = 65535;
  const turn = (360 * steps) / binDegrees;
  interface Piece {
    id: number;
    level: number;
    xs: number[];
    ys: number[];
  }
  const pieces: Piece[] = [];
  for (let bin = 0; bin < firstSegment.length; bin++) {
    const x0 = (bin % binsPerRow) * steps;
    const y0 = (180 / binDegrees - Math.floor(bin / binsPerRow) - 1) * steps;
    for (let s = firstSegment[bin]; s < firstSegment[bin] + segmentCount[bin]; s++) {
      const info = segmentInfo[s];
      const level = antarctic[s] ? ANTARCTICA : (info >> 6) & 7;
      if (level >= ANTARCTICA) continue;
      const xs: number[] = [];
      const ys: number[] = [];
      for (let p = firstPoint[s], end = p + (info >>> 9); p < end; p++) {
        xs.push(x0 + (dx[p] & 0xffff));
        ys.push(y0 + (dy[p] & 0xffff));
      }
      pieces.push({ id: segmentPolygon[s], level, xs, ys });
    }
  }

  const key = (id: number, x: number, y: number) => `${id}:${((x % turn) + turn) % turn}:${y}`;
  const byStart = new Map<string, number[]>();
  pieces.forEach((piece, i) => {
    const k = key(piece.id, piece.xs[0], piece.ys[0]);
    const list = byStart.get(k);
    if (list) list.push(i);
    else byStart.set(k, [i]);
  });
  const used = new Uint8Array(pieces.length);
  const rings: GshhgRing[] = [];
  for (let i = 0; i < pieces.length; i++) {
    if (used[i]) continue;
    used[i] = 1;
    const { id, level } = pieces[i];
    const xs = [...pieces[i].xs];
    const ys = [...pieces[i].ys];
    for (;;) {
      const lastX = xs[xs.length - 1],
        lastY = ys[ys.length - 1];
      const closed = xs.length > 2 && (lastX - xs[0]) % turn === 0 && lastY === ys[0];
      if (closed) break;
      const next = byStart.get(key(id, lastX, lastY))?.find((j) => !used[j]);
      if (next === undefined) throw new Error(`GSHHG: polygon ${id} does not close`);
      used[next] = 1;
      // The next piece may lie a turn away (across Greenwich): keep the ring continuous.
      const shift = lastX - pieces[next].xs[0];
      for (let k = 1; k < pieces[next].xs.length; k++) {
        xs.push(pieces[next].xs[k] + shift);
        ys.push(pieces[next].ys[k]);
      }
    }
    const scale = binDegrees / steps;
    rings.push({
      id,
      level,
      parent: level === 1 ? -1 : parents[id],
      xs: Float64Array.from(xs, (x) => x * scale),
      ys: Float64Array.from(ys, (y) => y * scale - 90),
    });
  }
  return rings;
}
