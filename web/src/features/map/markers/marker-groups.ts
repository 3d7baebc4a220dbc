/**
 * The map's 100 m groups (grouping.ts's rules), kept up to date one marker
 * at a time: a new post looks only at the grid cells within 100 m of it and merges the
 * groups it touches; a removed post re-groups only its own group (which may split). Each change
 * answers the features to remove and add, which the map's GeoJSON source applies as a diff
 * (`updateData`), so adding a post to 10^5 loaded costs the size of its group, not a rebuild.
 *
 * A group of one is a single marker (feature kind 'p'); a larger one a cluster marker ('g', its
 * count). Feature ids are numbers, new for each new membership, so a diff never edits in place.
 */
import { MAP } from '@moodmap/core';
import type { MarkerDto } from '../../posts/for-map.ts';
import { groupWithinRadius, haversineMeters, meanPoint } from './grouping.ts';

export interface MarkerGroup {
  /** The feature id on the map. */
  id: number;
  /** Members, newest first (the cluster list's order). */
  members: MarkerDto[];
  latitude: number;
  longitude: number;
}

export interface GroupDiff {
  remove: number[];
  add: MarkerGroup[];
}

const RAD = Math.PI / 180;
/** A grid row is one radius tall: every post within the radius lies in the rows next to it. */
const ROW_DEG = MAP.clusterRadiusM / MAP.earthRadiusM / RAD;
const ROWS = Math.ceil(180 / ROW_DEG);

function rowOf(latitude: number): number {
  return Math.min(ROWS - 1, Math.max(0, Math.floor((latitude + 90) / ROW_DEG)));
}

/** Columns of a row, each at least one radius wide at the highest latitude of the row and its neighbours. */
const colsCache = new Map<number, number>();
function colsOf(row: number): number {
  let cols = colsCache.get(row);
  if (cols === undefined) {
    const maxLat = Math.min(90, Math.max(Math.abs((row - 1) * ROW_DEG - 90), Math.abs((row + 2) * ROW_DEG - 90)));
    const cos = Math.cos(maxLat * RAD);
    cols = maxLat > 89 ? 1 : Math.max(1, Math.floor(360 / (ROW_DEG / cos)));
    colsCache.set(row, cols);
  }
  return cols;
}

function colOf(row: number, longitude: number): number {
  const cols = colsOf(row);
  const wrapped = (((longitude + 180) % 360) + 360) % 360;
  return Math.min(cols - 1, Math.floor(wrapped / (360 / cols)));
}

const cellKey = (row: number, col: number) => row * 4_194_304 + col;

/** Side of the coarse grid the groups' centres are filed in (groupsIn), in degrees: ~5 km. */
const AREA_DEG = 0.05;
const AREA_COLS = Math.ceil(360 / AREA_DEG);
const areaRow = (latitude: number) => Math.floor((Math.min(90, Math.max(-90, latitude)) + 90) / AREA_DEG);
const areaCol = (longitude: number) => Math.min(AREA_COLS - 1, Math.max(0, Math.floor((longitude + 180) / AREA_DEG)));
const areaOf = (group: { latitude: number; longitude: number }) =>
  areaRow(group.latitude) * AREA_COLS + areaCol(group.longitude);

/** Newest first; ties by id so the order is the same on every client. */
function byNewest(a: MarkerDto, b: MarkerDto): number {
  return b.createdAt.localeCompare(a.createdAt) || a.id.localeCompare(b.id);
}

/** What a group's feature shows (marker-layers.ts groupFeature): equal keys draw the same. */
function drawnKey(members: readonly MarkerDto[]): string {
  return members
    .map((m) => `${m.id}|${m.latitude}|${m.longitude}|${m.category}|${m.hasPulseEffect}|${m.nickname}|${m.photoUrl}`)
    .join(';');
}

export class MarkerGroups {
  private readonly markers = new Map<string, MarkerDto>();
  private readonly groupOfMarker = new Map<string, MarkerGroup>();
  private readonly groups = new Map<number, MarkerGroup>();
  private readonly cells = new Map<number, Set<string>>();
  /** Groups by the coarse area of their centre: a view's groups without a pass over all of them. */
  private readonly areas = new Map<number, Set<MarkerGroup>>();
  private nextId = 1;

  get size(): number {
    return this.markers.size;
  }

  has(id: string): boolean {
    return this.markers.has(id);
  }

  marker(id: string): MarkerDto | undefined {
    return this.markers.get(id);
  }

  /** The group drawn as feature `featureId`. */
  group(featureId: number): MarkerGroup | undefined {
    return this.groups.get(featureId);
  }

  /** The group holding a post. */
  groupOf(postId: string): MarkerGroup | undefined {
    return this.groupOfMarker.get(postId);
  }

  allGroups(): IterableIterator<MarkerGroup> {
    return this.groups.values();
  }

  allMarkers(): IterableIterator<MarkerDto> {
    return this.markers.values();
  }

  /**
   * The groups whose centre lies in a box (degrees, west ≤ east): from the coarse areas it covers,
   * so a city view of a map holding 10^5 posts looks at a few areas, not every group.
   */
  groupsIn(west: number, south: number, east: number, north: number): MarkerGroup[] {
    const inside = (g: MarkerGroup) =>
      g.latitude >= south && g.latitude <= north && g.longitude >= west && g.longitude <= east;
    const rows = areaRow(north) - areaRow(south) + 1;
    const cols = areaCol(east) - areaCol(west) + 1;
    if (cols <= 0 || rows * cols > this.areas.size) return [...this.groups.values()].filter(inside);
    const found: MarkerGroup[] = [];
    for (let row = areaRow(south); row <= areaRow(north); row++) {
      for (let col = areaCol(west); col <= areaCol(east); col++) {
        for (const group of this.areas.get(row * AREA_COLS + col) ?? []) if (inside(group)) found.push(group);
      }
    }
    return found;
  }

  /**
   * Replaces everything (a fetched viewport answer): one grouping pass over all markers. A group
   * drawn the same as before keeps its feature id, so the answer's diff touches only what
   * changed and a tap on a marker still on screen finds its group while the source updates.
   */
  reset(markers: readonly MarkerDto[]): GroupDiff {
    const before = new Map<string, MarkerGroup>();
    for (const group of this.groups.values()) before.set(drawnKey(group.members), group);
    this.markers.clear();
    this.groupOfMarker.clear();
    this.groups.clear();
    this.cells.clear();
    this.areas.clear();
    for (const m of markers) {
      if (this.markers.has(m.id)) continue;
      this.markers.set(m.id, m);
      this.index(m);
    }
    const add: MarkerGroup[] = [];
    for (const group of groupWithinRadius([...this.markers.values()])) {
      const members = group.items.sort(byNewest);
      const key = drawnKey(members);
      const kept = before.get(key);
      if (kept) before.delete(key);
      const registered = this.register(members, kept?.id);
      if (!kept) add.push(registered);
    }
    return { remove: [...before.values()].map((g) => g.id), add };
  }

  /** Adds (or moves) one marker: it joins every group within 100 m of it, merging them. */
  add(marker: MarkerDto): GroupDiff {
    const diff: GroupDiff = { remove: [], add: [] };
    if (this.markers.has(marker.id)) {
      const removed = this.remove(marker.id);
      diff.remove.push(...removed.remove);
      diff.add.push(...removed.add);
    }
    const touched = new Set<MarkerGroup>();
    const row = rowOf(marker.latitude);
    for (let r = Math.max(0, row - 1); r <= Math.min(ROWS - 1, row + 1); r++) {
      const cols = colsOf(r);
      const centreCol = colOf(r, marker.longitude);
      const span =
        cols <= 3
          ? [...Array(cols).keys()]
          : [centreCol - 1, centreCol, centreCol + 1].map((c) => ((c % cols) + cols) % cols);
      for (const c of span) {
        const cell = this.cells.get(cellKey(r, c));
        if (!cell) continue;
        for (const otherId of cell) {
          const group = this.groupOfMarker.get(otherId)!;
          if (touched.has(group)) continue;
          if (haversineMeters(marker, this.markers.get(otherId)!) <= MAP.clusterRadiusM) touched.add(group);
        }
      }
    }
    this.markers.set(marker.id, marker);
    this.index(marker);
    const members = [marker];
    for (const group of touched) {
      members.push(...group.members);
      this.forget(group);
      // A group made by this same call (a moved marker's old group) was never drawn.
      const fresh = diff.add.indexOf(group);
      if (fresh >= 0) diff.add.splice(fresh, 1);
      else diff.remove.push(group.id);
    }
    diff.add.push(this.register(members));
    return diff;
  }

  /** Removes one marker; the rest of its group is grouped again (it may split in two or more). */
  remove(id: string): GroupDiff {
    const marker = this.markers.get(id);
    const group = this.groupOfMarker.get(id);
    if (!marker || !group) return { remove: [], add: [] };
    this.markers.delete(id);
    this.groupOfMarker.delete(id);
    const cell = this.cells.get(this.cellOf(marker));
    cell?.delete(id);
    if (cell && cell.size === 0) this.cells.delete(this.cellOf(marker));
    this.forget(group);
    const rest = group.members.filter((m) => m.id !== id);
    const add =
      rest.length === 0
        ? []
        : rest.length === 1
          ? [this.register(rest)]
          : groupWithinRadius(rest).map((g) => this.register(g.items));
    return { remove: [group.id], add };
  }

  private forget(group: MarkerGroup): void {
    this.groups.delete(group.id);
    const area = areaOf(group);
    const filed = this.areas.get(area);
    filed?.delete(group);
    if (filed && filed.size === 0) this.areas.delete(area);
  }

  private cellOf(marker: MarkerDto): number {
    const row = rowOf(marker.latitude);
    return cellKey(row, colOf(row, marker.longitude));
  }

  private index(marker: MarkerDto): void {
    const key = this.cellOf(marker);
    let cell = this.cells.get(key);
    if (!cell) this.cells.set(key, (cell = new Set()));
    cell.add(marker.id);
  }

  private register(members: MarkerDto[], id = this.nextId++): MarkerGroup {
    members.sort(byNewest);
    const group: MarkerGroup = { id, members, ...meanPoint(members) };
    this.groups.set(group.id, group);
    const area = areaOf(group);
    let filed = this.areas.get(area);
    if (!filed) this.areas.set(area, (filed = new Set()));
    filed.add(group);
    for (const m of members) this.groupOfMarker.set(m.id, group);
    return group;
  }
}
