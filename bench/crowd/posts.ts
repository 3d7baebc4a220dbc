/**
 * The posts of the crowd bench, created by the parent process through POST /api/posts at a
 * steady rate: each by a seeded user never used before (one active post per person, and
 * post_create's hourly limit), at a city centre of world.ts picked by the cities' weights (on
 * land: the app checks it), alternately through each instance.
 */
import type { BenchUser } from '../messages/clients.ts';
import { CITIES, pick, random } from '../support/world.ts';
import { errorKind, postJson } from './http.ts';
import { epochNow, paced, tally, type SentPost } from './shared.ts';

const MOODS = ['happy', 'angry', 'party', 'money', 'love'] as const;
const WEIGHTS = CITIES.map((c) => c[3]);

export interface Posted {
  posts: SentPost[];
  errorKinds: Record<string, number>;
}

export function createPoster(users: BenchUser[], seed: number) {
  const next = random(seed);
  let used = 0;
  return {
    /** How many users are left to post. */
    left: () => users.length - used,
    /** `rate` posts/s for `ms` through `bases`, round-robin. */
    async post(bases: string[], rate: number, ms: number): Promise<Posted> {
      const posted: Posted = { posts: [], errorKinds: {} };
      await paced(rate, ms, async (k) => {
        const user = users[used++];
        if (!user) return tally(posted.errorKinds, 'no poster left');
        const [, latitude, longitude] = pick(CITIES, WEIGHTS, next());
        const body = { category: MOODS[k % MOODS.length], content: 'Un café en terrasse', latitude, longitude };
        const t0 = epochNow();
        const answer = await postJson(bases[k % bases.length], '/api/posts', user, body).catch(
          (error: NodeJS.ErrnoException) => ({ status: 0, json: error.code ?? error.message }),
        );
        const post = (answer.json as { post?: { id: string; latitude: number; longitude: number } } | null)?.post;
        if (answer.status !== 201 || !post) return tally(posted.errorKinds, errorKind(answer));
        posted.posts.push({ id: post.id, t0, latitude: post.latitude, longitude: post.longitude });
      });
      return posted;
    },
  };
}
