/**
 * One person's realtime connection, as the web app keeps it: a WebSocket to /api/realtime
 * through the balancer, `auth` with the access token and a `view` of the map on each open, and
 * a new connection soon after one is lost. It records which instance each connection reached,
 * when it was lost and when the next one was signed in again, and every private message frame.
 */
import WebSocket from 'ws';
import { z } from 'zod';
import { messageDtoSchema } from '@moodmap/core';
import { HOST_HEADER } from './haproxy.ts';
import { USER_AGENT } from './client.ts';
import { HOSTS } from './topology.ts';

const RETRY_MS = 250;
/** The map the people look at: Paris and around. */
export const VIEW = { type: 'view', west: 2.0, south: 48.6, east: 2.7, north: 49.1 } as const;

const frameSchema = z.object({
  type: z.string(),
  data: z.unknown().optional(),
  userId: z.string().nullable().optional(),
  reason: z.string().optional(),
});
const messageEventSchema = z.object({ message: messageDtoSchema });

export interface Delivery {
  messageId: string;
  conversationId: string;
  content: string;
  at: number;
  /** Which connection of this person carried it (0, 1, …). */
  connection: number;
}

export interface Connection {
  host: string | null;
  openedAt: number;
  /** When the server said this connection was signed in (`ready` with the user's id). */
  signedInAt: number | null;
  closedAt: number | null;
  /** When the server ended its session (`ready` with reason session_ended). */
  sessionEndedAt: number | null;
}

export class RealtimeClient {
  readonly connections: Connection[] = [];
  readonly deliveries: Delivery[] = [];
  private socket: WebSocket | null = null;
  private stopped = false;
  private readonly address: string;
  private readonly tokenOf: () => string;
  private readonly reconnect: boolean;
  private readonly pin: string | undefined;

  /** `pin`: the instance the balancer must send the socket to (while it is up). */
  constructor(
    address: string,
    tokenOf: () => string,
    options: { reconnect: boolean; pin?: string } = { reconnect: true },
  ) {
    this.address = address;
    this.tokenOf = tokenOf;
    this.reconnect = options.reconnect;
    this.pin = options.pin;
  }

  /** Resolves once the first connection is signed in (or rejects after 10 s). */
  start(): Promise<void> {
    this.open();
    return this.signedIn(this.connections.length - 1, 10_000);
  }

  current(): Connection | undefined {
    return this.connections.at(-1);
  }

  /** Resolves when connection `n` is signed in. */
  signedIn(n: number, timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    return new Promise((resolve, reject) => {
      const check = () => {
        if (this.connections[n]?.signedInAt) return resolve();
        if (Date.now() > deadline)
          return reject(new Error(`realtime: connection ${n} not signed in after ${timeoutMs} ms`));
        setTimeout(check, 20);
      };
      check();
    });
  }

  private open(): void {
    const index = this.connections.length;
    const connection: Connection = {
      host: null,
      openedAt: Date.now(),
      signedInAt: null,
      closedAt: null,
      sessionEndedAt: null,
    };
    this.connections.push(connection);
    const headers: Record<string, string> = { 'user-agent': USER_AGENT, origin: `http://${HOSTS.lb}` };
    if (this.pin) headers[HOST_HEADER] = this.pin;
    const socket = new WebSocket(`ws://${HOSTS.lb}/api/realtime`, {
      localAddress: this.address,
      headers,
      handshakeTimeout: 10_000,
    });
    this.socket = socket;
    socket.on('upgrade', (response) => {
      const host = response.headers[HOST_HEADER];
      connection.host = typeof host === 'string' ? host : null;
    });
    socket.on('open', () => {
      socket.send(JSON.stringify({ type: 'auth', token: this.tokenOf() }));
      socket.send(JSON.stringify(VIEW));
    });
    socket.on('message', (raw) => this.received(String(raw), connection, index));
    socket.on('error', () => {});
    socket.on('close', () => {
      connection.closedAt = Date.now();
      if (!this.stopped && this.reconnect) setTimeout(() => this.stopped || this.open(), RETRY_MS);
    });
  }

  private received(text: string, connection: Connection, index: number): void {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      return;
    }
    const frame = frameSchema.safeParse(value);
    if (!frame.success) return;
    const { type, data, userId, reason } = frame.data;
    const at = Date.now();
    if (type === 'ready' && userId) connection.signedInAt ??= at;
    if (type === 'ready' && reason === 'session_ended') connection.sessionEndedAt ??= at;
    if (type === 'message.created') {
      const event = messageEventSchema.safeParse(data);
      if (event.success) {
        const { id, conversationId, content } = event.data.message;
        this.deliveries.push({ messageId: id, conversationId, content, at, connection: index });
      }
    }
  }

  stop(): void {
    this.stopped = true;
    this.socket?.close();
  }
}
