/**
 * A bench server in a process of its own, driven over IPC: the load comes from the bench's
 * process, so the server's CPU and event loop are measured alone. The child script answers
 * each request message ('reset', 'stats', …) with a message of the same `type`, announces
 * `{ type: 'listening', … }` once ready, and exits after answering 'close'.
 */
import { fork, type ChildProcess } from 'node:child_process';

const children = new Set<ChildProcess>();
process.on('exit', () => children.forEach((c) => c.kill('SIGKILL')));

export interface ServerProcess {
  /** Resolves with the child's next message of `type` (rejects if it exits first). */
  next<T>(type: string): Promise<T>;
  /** Sends `type` (with `data` when given) and resolves with the child's answer of the same type. */
  ask<T>(type: string, data?: unknown): Promise<T>;
  /** Asks the child to close, and kills it after 15 s if it has not exited. */
  close(): Promise<void>;
}

/**
 * `quietStdout`: the child's stdout goes to /dev/null — a server logging every request at the
 * default level still formats and writes each line (that cost is measured), without flooding the
 * bench's own output.
 */
export function forkServer(
  script: string,
  env: Record<string, string>,
  execArgv: string[] = [],
  quietStdout = false,
): ServerProcess {
  const child = fork(script, [], {
    execArgv,
    env: { ...process.env, ...env },
    stdio: ['ignore', quietStdout ? 'ignore' : 'inherit', 'inherit', 'ipc'],
  });
  children.add(child);
  child.on('exit', () => children.delete(child));
  const next = <T>(type: string) =>
    new Promise<T>((resolve, reject) => {
      const onMessage = (message: { type: string }) => {
        if (message.type !== type) return;
        child.off('message', onMessage);
        child.off('exit', onExit);
        resolve(message as T);
      };
      const onExit = (code: number | null) =>
        reject(new Error(`server process exited (${code}) while waiting for '${type}'`));
      child.on('message', onMessage);
      child.once('exit', onExit);
    });
  return {
    next,
    ask<T>(type: string, data?: unknown) {
      const answer = next<T>(type);
      child.send(data === undefined ? type : { type, data });
      return answer;
    },
    async close() {
      if (child.exitCode !== null) return;
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      child.send('close');
      await exited;
      clearTimeout(timer);
    },
  };
}
