/**
 * The map feed's answers read without zod: `GET /api/posts/viewport`, the changes poll
 * and a realtime marker. The map waits for the first viewport answer; parsing it with core's
 * viewportResponseSchema fetched and ran core's schemas module (zod, every schema, the whole
 * catalogue) before the markers could be drawn. These readers accept exactly what
 * core's markerSchema, clusterSchema, viewportResponseSchema and changesResponseSchema accept and
 * return what they return (unknown fields dropped); test/viewport-answer.test.ts holds them to it.
 * Anything else is null: a malformed answer is refused, never trusted.
 */
import { type ClusterDto, type MarkerDto, type Mood, MOODS } from '@moodmap/core';

type Fields = Record<string, unknown>;

/** A plain object, as z.object and z.record take one (not null, not an array). */
function isFields(value: unknown): value is Fields {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** z.number(): finite numbers only. */
const isNumber = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);
const isString = (value: unknown): value is string => typeof value === 'string';
const isMood = (value: unknown): value is Mood => (MOODS as readonly unknown[]).includes(value);

/** Each item read by `read`, or null when the value is no array or one item is invalid. */
function listOf<T>(value: unknown, read: (item: unknown) => T | null): T[] | null {
  if (!Array.isArray(value)) return null;
  const items: T[] = [];
  for (const item of value) {
    const entry = read(item);
    if (entry === null) return null;
    items.push(entry);
  }
  return items;
}

/** core's markerSchema: a post as the map draws it. */
export function readMarkerAnswer(value: unknown): MarkerDto | null {
  if (!isFields(value)) return null;
  const { id, userId, category, latitude, longitude, nickname, hasPulseEffect, createdAt, photoUrl } = value;
  if (!isString(id) || !isString(userId) || !isMood(category) || !isNumber(latitude) || !isNumber(longitude))
    return null;
  if (
    !isString(nickname) ||
    typeof hasPulseEffect !== 'boolean' ||
    !isString(createdAt) ||
    !(photoUrl === null || isString(photoUrl))
  )
    return null;
  return { id, userId, category, latitude, longitude, nickname, hasPulseEffect, createdAt, photoUrl };
}

/** A server grid cluster; its type is the map's, whose clusters built in the browser may miss moods. */
export interface ClusterAnswer extends Omit<ClusterDto, 'moods'> {
  moods: Partial<ClusterDto['moods']>;
}

/** core's clusterSchema: its `moods` is z.record over the mood enum, so every mood and no other key. */
function readCluster(value: unknown): ClusterAnswer | null {
  if (!isFields(value) || !isFields(value.moods)) return null;
  const { id, latitude, longitude, count, moods: counts } = value;
  if (!isString(id) || !isNumber(latitude) || !isNumber(longitude) || !isNumber(count)) return null;
  if (Object.keys(counts).some((key) => !isMood(key))) return null;
  const moods: Partial<Record<Mood, number>> = {};
  for (const mood of MOODS) {
    const n = counts[mood];
    if (!isNumber(n)) return null;
    moods[mood] = n;
  }
  return { id, latitude, longitude, count, moods };
}

export interface ViewportAnswer {
  points: MarkerDto[];
  clusters: ClusterAnswer[];
  cursor: string;
  serverTime: string;
}

/** core's viewportResponseSchema. */
export function readViewportAnswer(value: unknown): ViewportAnswer | null {
  if (!isFields(value)) return null;
  const { cursor, serverTime } = value;
  const points = listOf(value.points, readMarkerAnswer);
  const clusters = listOf(value.clusters, readCluster);
  if (!points || !clusters || !isString(cursor) || !isString(serverTime)) return null;
  return { points, clusters, cursor, serverTime };
}

export interface ChangesAnswer {
  created: MarkerDto[];
  deleted: string[];
  cursor: string;
  serverTime: string;
}

/** core's changesResponseSchema. */
export function readChangesAnswer(value: unknown): ChangesAnswer | null {
  if (!isFields(value)) return null;
  const { cursor, serverTime } = value;
  const created = listOf(value.created, readMarkerAnswer);
  const deleted = listOf(value.deleted, (id) => (isString(id) ? id : null));
  if (!created || !deleted || !isString(cursor) || !isString(serverTime)) return null;
  return { created, deleted, cursor, serverTime };
}
