/**
 * The client side of the messages bench, the same for every server it measures: N users in
 * pairs (user i talks with user i ^ 1), each holding one WebSocket on /api/realtime of its
 * instance, signed in with { type: 'auth' }. Messages are sent at a controlled rate, in waves,
 * round-robin over the users, each by its sender through its own instance: as the web app sends
 * a text, a `message.send` request on the sender's socket answered by a `reply` (transport
 * 'socket'), or a POST (transport 'http', as an image goes). A message's latency is from the
 * moment the send is issued to the moment the other participant's socket receives
 * 'message.created' carrying that message's id.
 */
import http from 'node:http';
import WebSocket from 'ws';
import { closeAll } from '../support/sockets.ts';
import type { ConversationDto, MessageCreatedEvent, MessageDto } from '@moodmap/core';

export interface BenchUser {
  id: string;
  token: string;
  /** Its own client address (X-Forwarded-For), so per-IP limits count per user. */
  ip: string;
}

export type Transport = 'socket' | 'http';
export type PhaseName = 'paced' | 'saturated';

export interface LoadOptions {
  users: BenchUser[];
  transport: Transport;
  /** Base URL of the instance user i connects to and posts through. */
  baseOf: (i: number) => string;
  /** Warm-up messages (JIT, pools, plans), sent at `rate` and not counted. */
  warmup: number;
  /** Measured messages at `rate` per second, sent in waves every `waveMs`. */
  messages: number;
  rate: number;
  waveMs: number;
  /** Then this many more with `concurrency` sends in flight, as fast as answers come: the ceiling (0: skip). */
  saturationMessages: number;
  concurrency: number;
  /** How long after the last send answer a delivery may still arrive before it counts as lost. */
  deliveryTimeoutMs: number;
  /** Around each measured phase (not the set-up or the warm-up), e.g. to read the servers' CPU time. */
  beforeRun?: (phase: PhaseName) => Promise<void>;
  afterRun?: (phase: PhaseName) => Promise<void>;
}

export interface PhaseResult {
  /** Messages POSTed (answered 201 or not). */
  sent: number;
  delivered: number;
  errors: number;
  errorKinds: Record<string, number>;
  /** Rate the sends were actually issued at. */
  sendRate: number;
  /** Deliveries over the time from the first send to the last delivery. */
  deliveriesPerSecond: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
  mean: number;
  seconds: number;
}

export interface LoadResult {
  clients: number;
  paced: PhaseResult;
  saturated: PhaseResult | null;
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
const partner = (i: number) => i ^ 1;

function postJson(
  base: string,
  path: string,
  user: BenchUser,
  body: unknown,
): Promise<{ status: number; json: unknown }> {
  const payload = JSON.stringify(body);
  const url = new URL(path, base);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        agent,
        method: 'POST',
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        headers: {
          authorization: `Bearer ${user.token}`,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(payload),
          'x-forwarded-for': user.ip,
          'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Firefox/128.0',
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString();
          let json: unknown = null;
          try {
            json = JSON.parse(text);
          } catch {
            json = text;
          }
          resolve({ status: res.statusCode ?? 0, json });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

interface SendAnswer {
  status: number;
  json: unknown;
}

/** A socket reply in the shape of an HTTP answer: 201 and the data, or the refusal's status and error. */
function answerOfReply(reply: { data?: unknown; status?: number; error?: unknown }): SendAnswer {
  return reply.data ? { status: 201, json: reply.data } : { status: reply.status ?? 0, json: { error: reply.error } };
}

/** Runs `task(i)` for i in [0, count) with at most `limit` at once. */
async function pool(count: number, limit: number, task: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, count) }, async () => {
      while (next < count) await task(next++);
    }),
  );
}

function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

const round = (v: number, digits = 1) => Number(v.toFixed(digits));

interface Phase {
  count: number;
  /** Message id → when its POST was issued. */
  sent: Map<string, number>;
  start: number;
  lastSend: number;
  lastAnswer: number;
}

export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  const { users, baseOf } = options;
  if (users.length % 2) throw new Error('an even number of users is needed (pairs)');
  let errorKinds: Record<string, number> = {};
  const fail = (kind: string) => void (errorKinds[kind] = (errorKinds[kind] ?? 0) + 1);

  // One conversation per pair, opened by both its users through the real endpoint: the second
  // one's call accepts it, so no message of the run is a request its recipient is only told of.
  const conversationOf: string[] = new Array(users.length);
  await pool(users.length, 20, async (i) => {
    const res = await postJson(baseOf(i), '/api/conversations', users[i], { userId: users[partner(i)].id });
    if (res.status !== 200 && res.status !== 201)
      throw new Error(`POST /api/conversations: ${res.status} ${JSON.stringify(res.json)}`);
    conversationOf[i] = (res.json as { conversation: ConversationDto }).conversation.id;
  });

  // Receipts: message id → when the recipient's socket got it.
  const received = new Map<string, number>();
  let closing = false;
  const sockets: WebSocket[] = new Array(users.length);
  /** Socket requests under way: ref → what to do with the reply. */
  const awaitingReply = new Map<string, { i: number; resolve: (answer: SendAnswer) => void }>();
  function sendOne(i: number, n: number): Promise<SendAnswer> {
    const content = `Coucou, message n° ${n}`;
    if (options.transport === 'http')
      return postJson(baseOf(i), `/api/conversations/${conversationOf[i]}/messages`, users[i], { content });
    const ref = String(n);
    return new Promise((resolve) => {
      awaitingReply.set(ref, { i, resolve });
      sockets[i].send(JSON.stringify({ type: 'message.send', ref, conversationId: conversationOf[i], content }));
    });
  }
  /** Message n: user n mod N writes to its partner, through its own instance. */
  function sender(phase: Phase): (n: number) => Promise<void> {
    return (n) => {
      const i = n % users.length;
      const t0 = performance.now();
      phase.lastSend = t0;
      return sendOne(i, n).then(
        (res) => {
          phase.lastAnswer = performance.now();
          if (res.status !== 201)
            return fail(`${res.status} ${(res.json as { error?: { code?: string } })?.error?.code ?? ''}`.trim());
          phase.sent.set((res.json as { message: MessageDto }).message.id, t0);
        },
        (error: NodeJS.ErrnoException) => {
          phase.lastAnswer = performance.now();
          fail(`request ${error.code ?? error.message}`);
        },
      );
    };
  }

  const newPhase = (count: number): Phase => {
    const now = performance.now();
    return { count, sent: new Map(), start: now, lastSend: now, lastAnswer: now };
  };

  /** `count` messages at `rate` per second in waves (open loop); resolves when all are answered. */
  async function paced(count: number, first: number): Promise<Phase> {
    const phase = newPhase(count);
    const send = sender(phase);
    const answers: Array<Promise<void>> = [];
    let k = 0;
    await new Promise<void>((resolve) => {
      const tick = () => {
        // Catch up if a tick came late: the rate holds even when the loop is busy.
        const due = Math.min(count, Math.floor(((performance.now() - phase.start) / 1000) * options.rate) + 1);
        while (k < due) answers.push(send(first + k++));
        if (k >= count) resolve();
        else setTimeout(tick, options.waveMs);
      };
      tick();
    });
    await Promise.all(answers);
    return phase;
  }

  /** `count` messages with `concurrency` in flight (closed loop): as fast as the server answers. */
  async function saturate(count: number, first: number): Promise<Phase> {
    const phase = newPhase(count);
    const send = sender(phase);
    await pool(count, options.concurrency, (k) => send(first + k));
    return phase;
  }

  /** Waits for every answered message's delivery, or the timeout after the last answer. */
  async function settle(phase: Phase): Promise<void> {
    const deadline = phase.lastAnswer + options.deliveryTimeoutMs;
    while (performance.now() < deadline) {
      let missing = 0;
      for (const id of phase.sent.keys()) if (!received.has(id)) missing++;
      if (!missing) return;
      await new Promise((r) => setTimeout(r, 25));
    }
  }

  async function measured(run: () => Promise<Phase>): Promise<PhaseResult> {
    errorKinds = {};
    const phase = await run();
    await settle(phase);
    const latencies: number[] = [];
    let lastReceipt = phase.lastAnswer;
    for (const [id, t0] of phase.sent) {
      const at = received.get(id);
      if (at === undefined) fail('not delivered');
      else {
        latencies.push(at - t0);
        lastReceipt = Math.max(lastReceipt, at);
      }
    }
    latencies.sort((a, b) => a - b);
    const seconds = (lastReceipt - phase.start) / 1000;
    const kinds = errorKinds;
    return {
      sent: phase.count,
      delivered: latencies.length,
      errors: Object.values(kinds).reduce((a, b) => a + b, 0),
      errorKinds: kinds,
      sendRate: round((phase.count - 1) / Math.max(0.001, (phase.lastSend - phase.start) / 1000), 0),
      deliveriesPerSecond: round(latencies.length / Math.max(0.001, seconds), 0),
      p50: round(percentile(latencies, 50)),
      p95: round(percentile(latencies, 95)),
      p99: round(percentile(latencies, 99)),
      max: round(latencies[latencies.length - 1] ?? NaN),
      mean: round(latencies.reduce((a, b) => a + b, 0) / Math.max(1, latencies.length)),
      seconds: round(seconds, 2),
    };
  }

  try {
    await pool(users.length, 100, async (i) => {
      const user = users[i];
      const socket = new WebSocket(`${baseOf(i).replace(/^http/, 'ws')}/api/realtime`);
      sockets[i] = socket;
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`socket ${i}: not ready within 15 s`)), 15_000);
        socket.on('message', (raw) => {
          const frame = JSON.parse(String(raw)) as {
            type: string;
            userId?: string | null;
            data?: unknown;
            ref?: string;
            status?: number;
            error?: unknown;
          };
          if (frame.type === 'reply') {
            const answer = awaitingReply.get(frame.ref ?? '');
            awaitingReply.delete(frame.ref ?? '');
            return answer ? answer.resolve(answerOfReply(frame)) : fail('reply to no request');
          }
          if (frame.type === 'ready') {
            if (frame.userId === null) socket.send(JSON.stringify({ type: 'auth', token: user.token }));
            else if (frame.userId === user.id) {
              clearTimeout(timer);
              resolve();
            }
            return;
          }
          if (frame.type !== 'message.created') return;
          const { message } = frame.data as MessageCreatedEvent;
          if (message.senderId === user.id) return; // the sender's own copy
          if (message.conversationId !== conversationOf[i]) return fail('delivered to a stranger');
          if (!received.has(message.id)) received.set(message.id, performance.now());
        });
        socket.once('error', (error) => {
          clearTimeout(timer);
          reject(error);
        });
      });
      socket.on('close', () => {
        for (const [ref, { i: of, resolve }] of awaitingReply)
          if (of === i) {
            awaitingReply.delete(ref);
            resolve({ status: 0, json: 'socket closed' });
          }
        if (!closing) fail('socket closed during the run');
      });
    });

    // Warm-up, then the measured phases on quiet sockets.
    if (options.warmup) await measured(() => paced(options.warmup, 0));
    await options.beforeRun?.('paced');
    const pacedResult = await measured(() => paced(options.messages, options.warmup));
    await options.afterRun?.('paced');
    let saturated: PhaseResult | null = null;
    if (options.saturationMessages) {
      await options.beforeRun?.('saturated');
      saturated = await measured(() => saturate(options.saturationMessages, options.warmup + options.messages));
      await options.afterRun?.('saturated');
    }
    return { clients: users.length, paced: pacedResult, saturated };
  } finally {
    closing = true;
    // Sparse while connecting: a run that failed early has holes.
    await closeAll(sockets.filter(Boolean));
  }
}

export function closeClients(): void {
  agent.destroy();
}
