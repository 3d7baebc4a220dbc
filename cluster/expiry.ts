/**
 * Whether each instance still shows a post: its card, the list of live posts and the map's view
 * (which each instance keeps cached until a post event drops it), asked of each instance at its
 * own address. An expired post leaves the card and the list as soon as it is past its lifetime
 * (they read the database); the cached views keep it until the sweep's `post.deleted` reaches
 * the instance over the bus, which is what the goal times.
 */
import { setTimeout as delay } from 'node:timers/promises';
import { postsFeedResponseSchema, viewportResponseSchema } from '@moodmap/core';
import { type Answer, read } from './client.ts';
import type { Person } from './people.ts';
import type { AppHost } from './topology.ts';

const EVERY_MS = 100;
/** A look left unanswered this long is given up (no answer), and asked again in the next round. */
const LOOK_TIMEOUT_MS = 2_000;

export interface Place {
  latitude: number;
  longitude: number;
}

/**
 * One look: which instance and route (`app2 carte`), whether it held the post, when it came.
 * `shown` is null when no answer came at all (a connection refused, reset or silent, as a kept
 * connection from before a cut is once the cable is back): that says nothing either way.
 */
export interface Look {
  source: string;
  shown: boolean | null;
  at: number;
}

/** Only a 404, or a readable answer without the post, says it is gone; any other answer counts as showing it. */
export async function looksOn(reader: Person, host: AppHost, postId: string, near: Place): Promise<Look[]> {
  const look = async (what: string, path: string, gone: (answer: Answer) => boolean, token?: string): Promise<Look> => {
    const answer = await reader.browser.request('GET', path, { token, direct: host, timeoutMs: LOOK_TIMEOUT_MS });
    return { source: `${host} ${what}`, shown: answer.status === 0 ? null : !gone(answer), at: Date.now() };
  };
  const box = `west=${near.longitude - 0.05}&south=${near.latitude - 0.05}&east=${near.longitude + 0.05}&north=${near.latitude + 0.05}&zoom=12`;
  return Promise.all([
    look('fiche', `/api/posts/${postId}`, (answer) => answer.status === 404, reader.token),
    look(
      'liste',
      '/api/posts',
      (answer) => read(postsFeedResponseSchema, answer)?.posts.every((p) => p.id !== postId) === true,
      reader.token,
    ),
    look(
      'carte',
      `/api/posts/viewport?${box}`,
      (answer) => read(viewportResponseSchema, answer)?.points.every((p) => p.id !== postId) === true,
    ),
  ]);
}

export async function looksEverywhere(reader: Person, hosts: AppHost[], postId: string, near: Place): Promise<Look[]> {
  return (await Promise.all(hosts.map((h) => looksOn(reader, h, postId, near)))).flat();
}

export interface Gone {
  /** When the last source stopped showing it (the first answer without it, after its last with it); null if one still did at the deadline. */
  at: number | null;
  /** Per source, when it last answered with the post. */
  lastShownAt: Map<string, number>;
}

/** Asks every instance in `hosts` again and again until one round finds the post nowhere, or `deadline` passes. */
export async function watchGone(
  reader: Person,
  hosts: AppHost[],
  postId: string,
  near: Place,
  deadline: number,
): Promise<Gone> {
  const lastShownAt = new Map<string, number>();
  const goneSince = new Map<string, number>();
  while (Date.now() < deadline) {
    const looks = await looksEverywhere(reader, hosts, postId, near);
    for (const look of looks) {
      if (look.shown === null) continue;
      if (look.shown) {
        lastShownAt.set(look.source, look.at);
        goneSince.delete(look.source);
      } else if (!goneSince.has(look.source)) goneSince.set(look.source, look.at);
    }
    if (looks.every((l) => l.shown === false)) return { at: Math.max(...goneSince.values()), lastShownAt };
    await delay(EVERY_MS);
  }
  return { at: null, lastShownAt };
}

/** The sources that still answered with the post at or after `since` (a cache the measure covers). */
export function shownSince(gone: Gone, since: number): string[] {
  return [...gone.lastShownAt].filter(([, at]) => at >= since).map(([source]) => source);
}

/** The last answer that showed the post, if any did since the watch began. */
export function lastShown(gone: Gone): { source: string; at: number } | null {
  const [latest] = [...gone.lastShownAt].sort((a, b) => b[1] - a[1]);
  return latest ? { source: latest[0], at: latest[1] } : null;
}
