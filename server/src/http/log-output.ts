/**
 * Where the logs go: JSON lines on stdout for machines (a collector, a file, a pipe), readable
 * lines when stdout is a terminal — someone ran `npm start` and reads them.
 *
 * pino-pretty is loaded only for a terminal: a deployed server never pays for it.
 */
import pino, { type DestinationStream } from 'pino';
import type { PrettyOptions } from 'pino-pretty';

const field = (value: unknown, key: string): unknown =>
  typeof value === 'object' && value !== null ? Reflect.get(value, key) : undefined;

/** A request's line reads "GET /api/posts → 200 (4 ms)"; every other line is its message. */
function messageFormat(log: Record<string, unknown>, messageKey: string): string {
  const message = String(log[messageKey] ?? '');
  const method = field(log.req, 'method');
  if (typeof method !== 'string') return message;
  const status = field(log.res, 'statusCode');
  const time = typeof log.responseTime === 'number' ? ` (${Math.round(log.responseTime)} ms)` : '';
  return `${method} ${String(field(log.req, 'url'))} ${typeof status === 'number' ? `→ ${status}` : message}${time}`;
}

const PRETTY: PrettyOptions = {
  translateTime: 'SYS:HH:MM:ss',
  // The request's fields are in its line already; a step's name and time, the ready URL in their message.
  ignore: 'pid,hostname,reqId,req,res,responseTime,step,stepMs,url,node',
  singleLine: true,
  messageFormat,
  // Lines appear in order with the process's other output, and none is lost at exit.
  sync: true,
};

const pretty = process.stdout.isTTY ? (await import('pino-pretty')).default : null;
let shared: DestinationStream | undefined;

/**
 * The one stream every logger of the process writes to (the start's and Fastify's): two
 * streams on stdout would each buffer, and their lines could come out of order.
 */
export function logStream(): DestinationStream {
  shared ??= pretty ? pretty(PRETTY) : pino.destination({ dest: 1, sync: false });
  return shared;
}
