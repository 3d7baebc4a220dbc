import type { FastifyRequest } from 'fastify';
import type { RealtimeEvent } from '../../adapters/bus/types.ts';
import type { AppContext } from '../../context.ts';
import { requireUser } from '../auth/guard.ts';

/** Publishes a private event about the caller to some participants. */
export type Announce = (request: FastifyRequest, participants: string[], type: string, data: unknown) => Promise<void>;

/** Private events go to the two participants only (`about`: the caller, whom a blocked pair does not hear of); a failed publish never fails the request. */
export function privateAnnouncer(ctx: AppContext): Announce {
  return (request, participants, type, data) =>
    ctx.bus
      .publish({ type, data, targets: participants, about: [requireUser(request).userId] } satisfies RealtimeEvent)
      .catch((error) => request.log.error({ err: error, type }, 'publish failed'));
}
