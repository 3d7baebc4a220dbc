/**
 * HTTP as one person's browser would send it: from that person's own address (node:http's
 * `localAddress`), over its own keep-alive connections, to the load balancer. Every answer
 * says which instance served it (X-Cluster-Host, set by the balancer). A request may be pinned
 * to one instance by name, to read what each instance answers.
 */
import http from 'node:http';
import type { z } from 'zod';
import { HOST_HEADER } from './haproxy.ts';
import { HOSTS } from './topology.ts';

export const LB = `http://${HOSTS.lb}`;
export const USER_AGENT = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36';
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
}

export class Browser {
  readonly address: string;
  readonly agent: http.Agent;
  constructor(address: string) {
    this.address = address;
    this.agent = new http.Agent({ keepAlive: true, maxSockets: 4, localAddress: address });
  }

  request(method: string, path: string, options: RequestOptions = {}): Promise<Answer> {
    const headers: Record<string, string> = { 'user-agent': USER_AGENT, accept: 'application/json', ...options.headers };
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
      const req = http.request(`${LB}${path}`, { method, headers, agent: this.agent, timeout: TIMEOUT_MS }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const host = res.headers[HOST_HEADER];
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks), host: typeof host === 'string' ? host : null });
        });
        res.on('error', failed);
      });
      req.on('timeout', () => req.destroy());
      req.on('error', failed);
      req.end(body);
    });
  }

  close(): void {
    this.agent.destroy();
  }
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
