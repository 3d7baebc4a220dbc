/**
 * What the people do while instances die: post (half of them with a photo), like others' posts,
 * write to their partner, upload photos, sign in again. Every write the server acknowledged
 * (2xx) goes into the ledger, which the checks read back at the end; a write that got no answer
 * or an error is not retried (a person would see the error) and is not owed.
 */
import { setTimeout as delay } from 'node:timers/promises';
import sharp from 'sharp';
import {
  conversationResponseSchema,
  imageUploadResponseSchema,
  likeToggleResultSchema,
  MOODS,
  postResponseSchema,
  sentMessageResponseSchema,
} from '@moodmap/core';
import { read } from './client.ts';
import { type Failures, type Person, signIn } from './people.ts';
import { VIEW } from './sockets.ts';

export interface SentMessage {
  id: string;
  conversationId: string;
  sender: number;
  seq: number;
}

export class Ledger {
  readonly posts = new Map<string, number>();
  readonly places = new Map<string, { latitude: number; longitude: number }>();
  readonly likes: Array<{ postId: string; person: number }> = [];
  readonly messages: SentMessage[] = [];
  readonly uploads: string[] = [];
  /** Conversation of each pair, by either person's index. */
  readonly conversationOf = new Map<number, string>();
  /** Posts aged past their lifetime on purpose: owed gone, not kept, and their photos with them. */
  readonly expired = new Set<string>();
  /** The photo's address of each post published with one. */
  readonly photoOf = new Map<string, string>();
  /** Per person: next sequence number of its messages, and the posts it already tried to like. */
  readonly nextSeq = new Map<number, number>();
  readonly triedLikes = new Map<number, Set<string>>();
}

export const partnerOf = (index: number) => index ^ 1;
export const messageText = (sender: number, seq: number, run: string) => `m|${sender}|${seq}|${run}`;
export function parseMessageText(content: string): { sender: number; seq: number } | null {
  const match = /^m\|(\d+)\|(\d+)\|/.exec(content);
  return match ? { sender: Number(match[1]), seq: Number(match[2]) } : null;
}

let photo: Buffer | null = null;
/** A small real JPEG, made once. */
async function jpeg(): Promise<Buffer> {
  photo ??= await sharp({ create: { width: 96, height: 64, channels: 3, background: { r: 230, g: 120, b: 40 } } })
    .jpeg({ quality: 80 })
    .toBuffer();
  return photo;
}

const random = (from: number, to: number) => from + Math.random() * (to - from);

export async function upload(
  person: Person,
  ledger: Ledger,
  failures: Failures,
): Promise<{ id: string; url: string } | null> {
  const answer = await person.browser.request('POST', '/api/uploads/post-image', {
    token: person.token,
    multipart: { field: 'file', filename: 'photo.jpg', type: 'image/jpeg', data: await jpeg() },
  });
  const body = read(imageUploadResponseSchema, answer);
  if (answer.status !== 201 || !body) {
    failures.note('photo envoyée', answer);
    return null;
  }
  ledger.uploads.push(body.url);
  return { id: body.uploadId, url: body.url };
}

export async function publish(
  person: Person,
  ledger: Ledger,
  failures: Failures,
  withPhoto: boolean,
): Promise<string | null> {
  const attached = withPhoto ? await upload(person, ledger, failures) : null;
  const answer = await person.browser.request('POST', '/api/posts', {
    token: person.token,
    json: {
      category: MOODS[person.index % MOODS.length],
      content: `Une belle journée à Paris (${person.index})`,
      latitude: random(VIEW.south + 0.15, VIEW.north - 0.15),
      longitude: random(VIEW.west + 0.2, VIEW.east - 0.2),
      ...(attached ? { imageUploadId: attached.id } : {}),
    },
  });
  const body = read(postResponseSchema, answer);
  if (answer.status !== 201 || !body) {
    failures.note('publication', answer);
    return null;
  }
  ledger.posts.set(body.post.id, person.index);
  ledger.places.set(body.post.id, { latitude: body.post.latitude, longitude: body.post.longitude });
  if (attached) ledger.photoOf.set(body.post.id, attached.url);
  return body.post.id;
}

async function like(person: Person, ledger: Ledger, failures: Failures): Promise<void> {
  const tried = ledger.triedLikes.get(person.index) ?? new Set<string>();
  ledger.triedLikes.set(person.index, tried);
  const candidates = [...ledger.posts].filter(
    ([id, author]) => author !== person.index && !tried.has(id) && !ledger.expired.has(id),
  );
  const pick = candidates[Math.floor(Math.random() * candidates.length)];
  if (!pick) return;
  const [postId] = pick;
  // Tried once whatever happens: a like is a toggle, a second try could undo an unanswered first.
  tried.add(postId);
  const answer = await person.browser.request('POST', `/api/posts/${postId}/like`, { token: person.token });
  const body = read(likeToggleResultSchema, answer);
  if (answer.status !== 200 || !body?.liked) {
    failures.note('mention j’aime', answer);
    return;
  }
  ledger.likes.push({ postId, person: person.index });
}

/** Sends the person's next message to its partner (through `pin` if given); null if not acknowledged. */
export async function sendMessage(
  person: Person,
  ledger: Ledger,
  failures: Failures,
  run: string,
  pin?: string,
): Promise<{ sent: SentMessage; host: string | null } | null> {
  const conversationId = ledger.conversationOf.get(person.index);
  if (!conversationId) return null;
  const seq = ledger.nextSeq.get(person.index) ?? 0;
  ledger.nextSeq.set(person.index, seq + 1);
  const answer = await person.browser.request('POST', `/api/conversations/${conversationId}/messages`, {
    token: person.token,
    json: { content: messageText(person.index, seq, run) },
    pin,
  });
  const body = read(sentMessageResponseSchema, answer);
  if (answer.status !== 201 || !body) {
    failures.note('message', answer);
    return null;
  }
  const sent = { id: body.message.id, conversationId, sender: person.index, seq };
  ledger.messages.push(sent);
  return { sent, host: answer.host };
}

/** The pair's conversation: opened by the even person, whose first message the odd one accepts. */
export async function openConversation(
  a: Person,
  b: Person,
  ledger: Ledger,
  failures: Failures,
  run: string,
): Promise<void> {
  const opened = await a.browser.request('POST', '/api/conversations', { token: a.token, json: { userId: b.id } });
  const conversation = read(conversationResponseSchema, opened);
  if (!conversation || (opened.status !== 201 && opened.status !== 200)) {
    failures.note('conversation ouverte', opened);
    return;
  }
  const id = conversation.conversation.id;
  ledger.conversationOf.set(a.index, id);
  await sendMessage(a, ledger, failures, run);
  const accepted = await b.browser.request('POST', `/api/conversations/${id}/accept`, { token: b.token });
  if (accepted.status !== 200) {
    failures.note('demande acceptée', accepted);
    return;
  }
  ledger.conversationOf.set(b.index, id);
}

/** One person's activity until `until`: its post within the first 10 s, then an action every 2–5 s. */
export async function act(
  person: Person,
  ledger: Ledger,
  failures: Failures,
  run: string,
  until: number,
): Promise<void> {
  // One live post per person (the server's rule): those who posted already only act otherwise.
  let posted = [...ledger.posts.values()].includes(person.index);
  let signedInAgain = false;
  await delay(random(0, 10_000));
  while (Date.now() < until) {
    const roll = Math.random();
    if (!posted) {
      posted = true;
      await publish(person, ledger, failures, person.index % 2 === 0);
    } else if (roll < 0.55) await sendMessage(person, ledger, failures, run);
    else if (roll < 0.85) await like(person, ledger, failures);
    else if (roll < 0.95 || signedInAgain) await upload(person, ledger, failures);
    else {
      signedInAgain = true;
      const session = await signIn(person.browser, person.email, failures);
      if (session) Object.assign(person, { token: session.token, refresh: session.refresh });
    }
    await delay(random(2000, 5000));
  }
}
