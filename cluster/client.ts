/**
 * HTTP as one person's browser would send it: from that person's own address (node:http's
 * `localAddress`), over its own keep-alive connections, to the load balancer. Every answer
 * says which instance served it (X-Cluster-Host, set by the balancer). A request may be pinned
 * to one instance by name (through the balancer, while it counts that instance up), or sent to
 * an instance's own address, bypassing the balancer, to read what each instance answers.
 */
import http from 'node:http';
import { setTimeout as delay } from 'node:timers/promises';
import type { z } from 'zod';
import { APP_PORT, HOST_HEADER } from './haproxy.ts';
import { type AppHost, HOSTS } from './topology.ts';

export const LB = `http://${HOSTS.lb}`;
export const USER_AGENT =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36';
const TIMEOUT_MS = 30_000;

export interface Answer {
  /** 0 when no answer came (connection refused or reset, timeout). */
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  /** The instance that answered, per the balancer. */
  host: string | null;
}

export interface RequestOptions {
  token?: string;
  json?: unknown;
  multipart?: { field: string; filename: string; type: string; data: Buffer };
  headers?: Record<string, string>;
  /** An instance's name: the balancer sends the request there (while it is up). */
  pin?: string;
  /** An instance whose own address gets the request, not the balancer's. */
  direct?: AppHost;
  /** Idle time after which the request is given up (no answer). */
  timeoutMs?: number;
}

export class Browser {
  readonly address: string;
  readonly agent: http.Agent;
  constructor(address: string) {
    this.address = address;
    this.agent = new http.Agent({ keepAlive: true, maxSockets: 4, localAddress: address });
  }

  request(method: string, path: string, options: RequestOptions = {}): Promise<Answer> {
    const headers: Record<string, string> = {
      'user-agent': USER_AGENT,
      accept: 'application/json',
      ...options.headers,
    };
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    if (options.pin) headers[HOST_HEADER] = options.pin;
    let body: Buffer | undefined;
    if (options.json !== undefined) {
      body = Buffer.from(JSON.stringify(options.json));
      headers['content-type'] = 'application/json';
    } else if (options.multipart) {
      const boundary = `----moodmap${Math.random().toString(16).slice(2)}`;
      const { field, filename, type, data } = options.multipart;
      const head = `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\nContent-Type: ${type}\r\n\r\n`;
      body = Buffer.concat([Buffer.from(head), data, Buffer.from(`\r\n--${boundary}--\r\n`)]);
      headers['content-type'] = `multipart/form-data; boundary=${boundary}`;
    }
    if (body) headers['content-length'] = String(body.length);
    return new Promise((resolve) => {
      const failed = (): void => resolve({ status: 0, headers: {}, body: Buffer.alloc(0), host: null });
      const base = options.direct ? `http://${HOSTS[options.direct]}:${APP_PORT}` : LB;
      const req = http.request(
        `${base}${path}`,
        { method, headers, agent: this.agent, timeout: options.timeoutMs ?? TIMEOUT_MS },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => {
            const host = options.direct ?? res.headers[HOST_HEADER];
            resolve({
              status: res.statusCode ?? 0,
              headers: res.headers,
              body: Buffer.concat(chunks),
              host: typeof host === 'string' ? host : null,
            });
          });
          res.on('error', failed);
        },
      );
      req.on('timeout', () => req.destroy());
      req.on('error', failed);
      req.end(body);
    });
  }

  close(): void {
    this.agent.destroy();
  }
}

/** The moment the balancer serves `host` again (a request pinned to it answered by it); null if not by `deadline`. */
export async function servedByBalancer(browser: Browser, host: AppHost, deadline: number): Promise<number | null> {
  while (Date.now() < deadline) {
    const answer = await browser.request('GET', '/api/health', { pin: host, timeoutMs: 2_000 });
    if (answer.status === 200 && answer.host === host) return Date.now();
    await delay(100);
  }
  return null;
}

/** The answer's JSON body read through its schema; null when it is not that. */
export function read<T>(schema: z.ZodType<T>, answer: Answer): T | null {
  try {
    const parsed = schema.safeParse(JSON.parse(answer.body.toString('utf8')));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** The value of one cookie among the answer's Set-Cookie headers. */
export function cookieOf(answer: Answer, name: string): string | null {
  for (const line of answer.headers['set-cookie'] ?? []) {
    const match = new RegExp(`^${name}=([^;]*)`).exec(line);
    if (match?.[1]) return match[1];
  }
  return null;
}
