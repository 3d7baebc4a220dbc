/**
 * The sweepers (sweeper.ts) on the leader's timers, so only the leading instance runs them
 * (failures are logged by the leader): expired posts leave every map (and the cell counts)
 * within seconds, with their files; tombstones and orphan uploads every minute.
 */
import type { AppContext } from '../../context.ts';
import { deleteMediaUrls } from '../media/index.ts';
import type { DeletedPost } from './data.ts';
import { deletedEvent } from './events.ts';
import { POST_SWEEP_EVERY_MS, SWEEP_EVERY_MS, sweepExpired, sweepExpiredPosts } from './sweeper.ts';

/** Starts both sweepers; the function returned stops them, waiting for a sweep under way. */
export function startPostSweepers(ctx: AppContext): () => Promise<void> {
  const { db } = ctx.database;
  const announceSwept = async (swept: DeletedPost[]) => {
    for (const post of swept) await ctx.bus.publish(deletedEvent(post));
  };
  const sweepPosts = async () => {
    const swept = await sweepExpiredPosts(db);
    await deleteMediaUrls(
      ctx.storage,
      swept.flatMap((p) => p.mediaUrls),
    );
    await announceSwept(swept);
  };
  const sweepAll = async () => {
    const { deleted, mediaUrls } = await sweepExpired(db);
    await deleteMediaUrls(ctx.storage, mediaUrls);
    await announceSwept(deleted);
  };
  const sweepers = [
    ctx.leader.every('posts.sweep-expired', POST_SWEEP_EVERY_MS, sweepPosts),
    ctx.leader.every('posts.sweep-all', SWEEP_EVERY_MS, sweepAll),
  ];
  return async () => {
    await Promise.all(sweepers.map((stop) => stop()));
  };
}
