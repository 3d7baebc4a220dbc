/**
 * The chatters of one client process, as in the messages bench (messages/clients.ts): pairs
 * (2k, 2k + 1) whose two people sit on different instances, each signed in on a socket of its
 * own; a message is sent by its sender through its own instance, as the web app sends a text (a
 * `message.send` request on its socket, answered by a `reply`), and timed from the send issued
 * to the partner's socket receiving `message.created` with its id. Sender and receiver live in
 * this process, so one clock times both ends.
 */
import WebSocket from 'ws';
import type { ConversationDto, MessageCreatedEvent } from '@moodmap/core';
import { errorKind, postJson } from './http.ts';
import { paced, sleep, tally, type ChatterSpec } from './shared.ts';
import { closeAll } from '../support/sockets.ts';

const READY_TIMEOUT_MS = 30_000;
const partner = (i: number) => i ^ 1;

export interface ChatRun {
  latencies: number[];
  sent: number;
  errorKinds: Record<string, number>;
  /** Epoch ms of the first send and of the last delivery (or answer). */
  first: number;
  last: number;
}

export function createChat(specs: ChatterSpec[]) {
  const sockets: WebSocket[] = [];
  const conversationOf: string[] = new Array(specs.length);
  /** Message id → when its recipient got it (performance.now()). */
  const received = new Map<string, number>();
  let strays = 0;
  /** Requests under way: ref → what to do with the reply. */
  const awaitingReply = new Map<string, (answer: { status: number; json: unknown }) => void>();

  /** Sends message n from chatter i over its socket; resolves with the reply as an HTTP-like answer. */
  function sendMessage(i: number, n: number): Promise<{ status: number; json: unknown }> {
    const ref = String(n);
    return new Promise((resolve) => {
      awaitingReply.set(ref, resolve);
      const frame = {
        type: 'message.send',
        ref,
        conversationId: conversationOf[i],
        content: `Coucou, message n° ${n}`,
      };
      sockets[i].send(JSON.stringify(frame), (error) => {
        if (error) awaitingReply.delete(ref), resolve({ status: 0, json: error.message });
      });
    });
  }

  function settleReply(frame: { ref?: string; data?: unknown; status?: number; error?: unknown }): void {
    const resolve = awaitingReply.get(frame.ref ?? '');
    if (!resolve) return;
    awaitingReply.delete(frame.ref ?? '');
    resolve(
      frame.data ? { status: 201, json: frame.data } : { status: frame.status ?? 0, json: { error: frame.error } },
    );
  }

  function open(i: number): Promise<void> {
    const { base, user } = specs[i];
    const socket = new WebSocket(`${base.replace(/^http/, 'ws')}/api/realtime`);
    sockets[i] = socket;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('chatter not signed in within 30 s')), READY_TIMEOUT_MS);
      socket.on('message', (raw) => {
        const frame = JSON.parse(String(raw)) as { type: string; userId?: string | null; data?: unknown; ref?: string };
        if (frame.type === 'reply') settleReply(frame);
        else if (frame.type === 'ready' && frame.userId === null)
          socket.send(JSON.stringify({ type: 'auth', token: user.token }));
        else if (frame.type === 'ready' && frame.userId === user.id) clearTimeout(timer), resolve();
        else if (frame.type === 'message.created') receive(i, frame.data as MessageCreatedEvent);
      });
      socket.on('error', (error) => {
        clearTimeout(timer);
        reject(error);
      });
    });
  }

  function receive(i: number, { message }: MessageCreatedEvent): void {
    if (message.senderId === specs[i].user.id) return; // the sender's own copy
    if (message.conversationId !== conversationOf[i]) strays++;
    else if (!received.has(message.id)) received.set(message.id, performance.now());
  }

  /**
   * Signs every chatter in (`batch` at a time), then opens each pair's conversation from both
   * sides: the app files a first contact as a request for the other person (message.request,
   * not message.created, until they reply or open it), and these two are already chatting.
   */
  async function connect(batch: number): Promise<{ ms: number }> {
    const start = performance.now();
    for (let i = 0; i < specs.length; i += batch) {
      await Promise.all(specs.slice(i, i + batch).map((_, k) => open(i + k)));
    }
    for (let i = 0; i < specs.length; i += 40) {
      await Promise.all(
        specs.slice(i, i + 40).map(async (_, k) => {
          if ((i + k) % 2) return;
          await openConversation(i + k);
          await openConversation(i + k + 1);
        }),
      );
    }
    return { ms: performance.now() - start };
  }

  async function openConversation(i: number): Promise<void> {
    const answer = await postJson(specs[i].base, '/api/conversations', specs[i].user, {
      userId: specs[partner(i)].user.id,
    });
    if (answer.status !== 200 && answer.status !== 201)
      throw new Error(`POST /api/conversations: ${errorKind(answer)}`);
    conversationOf[i] = conversationOf[partner(i)] = (answer.json as { conversation: ConversationDto }).conversation.id;
  }

  /** `rate` messages/s for `ms`, round-robin over the senders; waits for their deliveries. */
  async function run(rate: number, ms: number, first: number, settleMs: number): Promise<ChatRun> {
    const sent = new Map<string, number>();
    const errorKinds: Record<string, number> = {};
    const start = performance.now();
    let lastAnswer = start;
    await paced(rate, ms, async (k) => {
      const n = first + k;
      const i = n % specs.length;
      const t0 = performance.now();
      const answer = await sendMessage(i, n);
      lastAnswer = performance.now();
      if (answer.status === 201) sent.set((answer.json as { message: { id: string } }).message.id, t0);
      else tally(errorKinds, errorKind(answer));
    });
    const deadline = lastAnswer + settleMs;
    while ([...sent.keys()].some((id) => !received.has(id)) && performance.now() < deadline) await sleep(50);
    return summarise(sent, errorKinds, start, lastAnswer);
  }

  function summarise(sent: Map<string, number>, errorKinds: Record<string, number>, start: number, lastAnswer: number) {
    const latencies: number[] = [];
    let last = lastAnswer;
    for (const [id, t0] of sent) {
      const at = received.get(id);
      if (at === undefined) tally(errorKinds, 'not delivered');
      else latencies.push(at - t0), (last = Math.max(last, at));
    }
    if (strays) tally(errorKinds, 'delivered to a stranger', strays);
    strays = 0;
    const epoch = (t: number) => performance.timeOrigin + t;
    return { latencies, sent: sent.size, errorKinds, first: epoch(start), last: epoch(last) };
  }

  return { connect, run, close: () => closeAll(sockets) };
}
