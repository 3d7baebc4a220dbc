/**
 * What the workload reads back once the faults are over, through the balancer: every write that
 * was acknowledged, what reached the sockets, and the fate of a socket whose session was revoked
 * on another instance.
 */
import http from 'node:http';
import { setTimeout as delay } from 'node:timers/promises';
import { messagePageSchema, postResponseSchema } from '@moodmap/core';
import { LB, read } from './client.ts';
import { type Failures, type Person, signIn } from './people.ts';
import { RealtimeClient } from './sockets.ts';
import { type Ledger, parseMessageText, partnerOf, sendMessage } from './traffic.ts';

/** Runs `job` over `items`, `width` at a time. */
export async function inBatches<T, R>(items: T[], width: number, job: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = [];
  for (let i = 0; i < items.length; i += width)
    results.push(...(await Promise.all(items.slice(i, i + width).map(job))));
  return results;
}

export interface Reconnections {
  /** People whose socket was on the failed host at that moment. */
  affected: number;
  /** Of them, signed in again through another host within the goal. */
  within: number;
  /** Null when one never was. */
  slowestMs: number | null;
}

/** The sockets on `host` when it failed at `at`, and how soon each was signed in again elsewhere. */
export function reconnections(
  clients: Map<number, RealtimeClient>,
  host: string,
  at: number,
  goalMs: number,
): Reconnections {
  const result: Reconnections = { affected: 0, within: 0, slowestMs: 0 };
  for (const client of clients.values()) {
    const was = client.connections.filter((c) => c.openedAt <= at && (c.closedAt === null || c.closedAt >= at)).at(-1);
    if (was?.host !== host) continue;
    result.affected++;
    const next = client.connections.find((c) => c.openedAt > at && c.signedInAt !== null && c.host !== host);
    const took = next?.signedInAt ? next.signedInAt - at : null;
    if (took !== null && took <= goalMs) result.within++;
    result.slowestMs = took === null || result.slowestMs === null ? null : Math.max(result.slowestMs, took);
  }
  return result;
}

export interface LostWrites {
  posts: number;
  likes: number;
  messages: number;
  uploads: number;
  /** Reads that got no answer or an error (401, 5xx): neither found nor known to be missing. */
  unreadable: number;
  /** Messages present twice in a conversation's history, or in an order their sender did not send. */
  historyDuplicates: number;
  historyDisorder: number;
}

function statusOf(url: string): Promise<number> {
  return new Promise((resolve) => {
    http
      .get(url, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      })
      .on('error', () => resolve(0));
  });
}

export async function lostWrites(people: Person[], ledger: Ledger): Promise<LostWrites> {
  const byIndex = new Map(people.map((p) => [p.index, p]));
  const reader = people[0];
  const lost: LostWrites = {
    posts: 0,
    likes: 0,
    messages: 0,
    uploads: 0,
    unreadable: 0,
    historyDuplicates: 0,
    historyDisorder: 0,
  };
  /** A 404 (or a 200 without the write) is a loss; anything else is a read that failed. */
  const missing = (status: number, field: 'posts' | 'likes' | 'messages' | 'uploads', count = 1) => {
    if (status === 200 || status === 404) lost[field] += count;
    else lost.unreadable += count;
  };
  const kept = [...ledger.posts.keys()].filter((id) => !ledger.expired.has(id));
  await inBatches(kept, 20, async (id) => {
    const answer = await reader.browser.request('GET', `/api/posts/${id}`, { token: reader.token });
    if (answer.status !== 200 || !read(postResponseSchema, answer)) missing(answer.status, 'posts');
  });
  const likes = ledger.likes.filter((l) => !ledger.expired.has(l.postId));
  await inBatches(likes, 20, async ({ postId, person }) => {
    const liker = byIndex.get(person);
    const answer = liker ? await liker.browser.request('GET', `/api/posts/${postId}`, { token: liker.token }) : null;
    if (!answer || !read(postResponseSchema, answer)?.post.isLikedByUser) missing(answer?.status ?? 0, 'likes');
  });
  const conversations = new Map<string, number>();
  for (const [index, id] of ledger.conversationOf) conversations.set(id, index);
  await inBatches([...conversations], 20, async ([conversationId, index]) => {
    const person = byIndex.get(index);
    const answer = person
      ? await person.browser.request('GET', `/api/conversations/${conversationId}/messages?limit=200`, {
          token: person.token,
        })
      : null;
    const page = answer ? read(messagePageSchema, answer) : null;
    const sent = ledger.messages.filter((m) => m.conversationId === conversationId);
    if (!page) {
      missing(answer?.status ?? 0, 'messages', sent.length);
      return;
    }
    const seen = new Map<string, number>();
    const lastSeq = new Map<number, number>();
    for (const message of page.messages) {
      seen.set(message.id, (seen.get(message.id) ?? 0) + 1);
      const parsed = parseMessageText(message.content);
      if (!parsed) continue;
      if ((lastSeq.get(parsed.sender) ?? -1) > parsed.seq) lost.historyDisorder++;
      lastSeq.set(parsed.sender, parsed.seq);
    }
    lost.historyDuplicates += [...seen.values()].filter((n) => n > 1).length;
    lost.messages += sent.filter((m) => !seen.has(m.id)).length;
  });
  const expiredPhotos = new Set([...ledger.expired].map((id) => ledger.photoOf.get(id)));
  await inBatches(
    ledger.uploads.filter((url) => !expiredPhotos.has(url)),
    20,
    async (url) => {
      const status = await statusOf(url);
      if (status !== 200) missing(status, 'uploads');
    },
  );
  return lost;
}

export interface DeliveryFigures {
  /** A message frame that reached the same person twice. */
  duplicates: number;
  /** A frame that arrived after a later message of the same sender in the same conversation. */
  outOfOrder: number;
  /** Acknowledged messages (after the request was accepted) that reached the partner's socket live. */
  live: number;
  owed: number;
}

export function deliveries(clients: Map<number, RealtimeClient>, ledger: Ledger): DeliveryFigures {
  const figures: DeliveryFigures = { duplicates: 0, outOfOrder: 0, live: 0, owed: 0 };
  const received = new Map<number, Set<string>>();
  for (const [index, client] of clients) {
    const ids = new Set<string>();
    const lastSeq = new Map<string, number>();
    for (const delivery of client.deliveries) {
      if (ids.has(delivery.messageId)) figures.duplicates++;
      ids.add(delivery.messageId);
      const parsed = parseMessageText(delivery.content);
      if (!parsed) continue;
      const key = `${delivery.conversationId}|${parsed.sender}`;
      if ((lastSeq.get(key) ?? -1) > parsed.seq) figures.outOfOrder++;
      lastSeq.set(key, Math.max(parsed.seq, lastSeq.get(key) ?? -1));
    }
    received.set(index, ids);
  }
  for (const message of ledger.messages) {
    if (message.seq === 0 && message.sender % 2 === 0) continue; // the request, before acceptance
    figures.owed++;
    if (received.get(partnerOf(message.sender))?.has(message.id)) figures.live++;
  }
  return figures;
}

export interface RevocationFigures {
  tried: number;
  /** Revocations on a host other than the socket's. */
  crossHost: number;
  /** Slowest time from the sign-out's request to the socket's `session_ended`; null if one never came. */
  slowestMs: number | null;
  /** Private frames a revoked socket received after its session ended. */
  leaked: number;
  /** The same person's other socket (another session) did receive the message. */
  controlDelivered: number;
}

/**
 * For each person: a second session with its own socket, signed out through another instance
 * than the socket's; the socket must lose its identity at once, and the partner's next message
 * must reach only the person's other socket.
 */
export async function revocations(
  people: Person[],
  clients: Map<number, RealtimeClient>,
  ledger: Ledger,
  failures: Failures,
  run: string,
  alive: string[],
): Promise<RevocationFigures> {
  const figures: RevocationFigures = { tried: 0, crossHost: 0, slowestMs: 0, leaked: 0, controlDelivered: 0 };
  const byIndex = new Map(people.map((p) => [p.index, p]));
  for (const person of people) {
    const partner = byIndex.get(partnerOf(person.index));
    const main = clients.get(person.index);
    if (!partner || !main || !ledger.conversationOf.has(partner.index)) continue;
    const session = await signIn(person.browser, person.email, failures);
    if (!session) continue;
    const second = new RealtimeClient(person.browser.address, () => session.token, { reconnect: false });
    if (
      !(await second.start().then(
        () => true,
        () => false,
      ))
    ) {
      failures.count('WebSocket non connectée (révocation)');
      second.stop();
      continue;
    }
    const socketHost = second.current()?.host ?? null;
    const other = alive.find((h) => h !== socketHost);
    if (!other) {
      second.stop();
      continue;
    }
    figures.tried++;
    // Timed from the sign-out's sending: the socket's news may arrive before the answer does.
    const signedOutAt = Date.now();
    const logout = await person.browser.request('POST', '/api/auth/logout', {
      pin: other,
      headers: { cookie: `moodmap_refresh=${session.refresh}`, 'x-requested-with': 'moodmap', origin: LB },
    });
    if (logout.status !== 204) failures.note('déconnexion', logout);
    if (logout.host !== socketHost) figures.crossHost++;
    while (!second.current()?.sessionEndedAt && Date.now() - signedOutAt < 5_000) await delay(10);
    const endedAt = second.current()?.sessionEndedAt ?? null;
    figures.slowestMs =
      endedAt === null || figures.slowestMs === null ? null : Math.max(figures.slowestMs, endedAt - signedOutAt);
    const before = main.deliveries.length;
    const sent = (await sendMessage(partner, ledger, failures, run))?.sent;
    const deadline = Date.now() + 3_000;
    while (sent && Date.now() < deadline && !main.deliveries.slice(before).some((d) => d.messageId === sent.id))
      await delay(20);
    if (sent && main.deliveries.slice(before).some((d) => d.messageId === sent.id)) figures.controlDelivered++;
    figures.leaked += second.deliveries.filter((d) => d.at > (endedAt ?? signedOutAt)).length;
    second.stop();
  }
  return figures;
}
