/**
 * A post leaving or coming back to the map through moderation. The database keeps
 * the cell counts and tombstones in step (migration 0007's trigger); here the map's viewers hear
 * of it through the usual events, which also drop every instance's cached viewport answers.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { MarkerDto } from '@moodmap/core';
import type { AppContext } from '../../context.ts';
import type { Db } from '../../db/client.ts';
import { getLiveMarker } from '../posts/data.ts';
import { toMarkerDto } from '../posts/dto.ts';

export interface Place {
  id: string;
  /** The author: the hub keeps the event from their blocked pairs. */
  userId: string;
  latitude: number;
  longitude: number;
}

export async function announceHidden(ctx: AppContext, log: FastifyBaseLogger, post: Place): Promise<void> {
  const { id, latitude, longitude } = post;
  await ctx.bus
    .publish({
      type: 'post.deleted',
      data: { id, latitude, longitude },
      at: { latitude, longitude },
      about: [post.userId],
    })
    .catch((error) => log.error({ err: error }, 'publish failed'));
}

/** The restored post's marker to the maps showing its place (nothing when it expired meanwhile). */
export async function announceRestored(ctx: AppContext, db: Db, log: FastifyBaseLogger, postId: string): Promise<void> {
  const row = await getLiveMarker(db, postId);
  if (!row) return;
  const marker: MarkerDto = toMarkerDto(row);
  await ctx.bus
    .publish({
      type: 'post.created',
      data: { post: marker },
      at: { latitude: marker.latitude, longitude: marker.longitude },
      about: [marker.userId],
    })
    .catch((error) => log.error({ err: error }, 'publish failed'));
}
