/**
 * JSON POSTs as one signed-in user: its bearer token and its own X-Forwarded-For, so the app's
 * per-address limits count per user as behind a proxy. Keep-alive connections are pooled: the
 * load is requests, not TCP handshakes.
 */
import http from 'node:http';
import type { BenchUser } from '../messages/clients.ts';

const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });

export interface Answer {
  status: number;
  json: unknown;
}

export function postJson(base: string, path: string, user: BenchUser, body: unknown): Promise<Answer> {
  const payload = JSON.stringify(body);
  const url = new URL(path, base);
  return new Promise((resolve, reject) => {
    const headers = {
      authorization: `Bearer ${user.token}`,
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(payload),
      'x-forwarded-for': user.ip,
      'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Firefox/128.0',
    };
    const req = http.request({ agent, method: 'POST', host: url.hostname, port: url.port, path, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, json: parse(Buffer.concat(chunks).toString()) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(payload);
  });
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** The error code of an answer that is not the expected one, for the tally of errors. */
export const errorKind = (answer: Answer) =>
  `HTTP ${answer.status} ${(answer.json as { error?: { code?: string } } | null)?.error?.code ?? ''}`.trim();

export function closeHttp(): void {
  agent.destroy();
}
