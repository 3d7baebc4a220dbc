/**
 * The server side of forkServer's IPC channel (server-process.ts), shared by every server the
 * benches start: 'reset' starts measuring the event loop and the CPU, 'stats' answers
 * { cpuMs, loopMaxMs, loopP99Ms, loopMeanMs } since then, 'close' shuts down once and answers
 * 'closed' — as does the parent going away (crash, Ctrl-C), so nothing keeps the port or the
 * database. Any other message goes to `extra`, which answers it itself.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';

export const sendToParent = (message: unknown) => process.send?.(message);

export interface ChildOptions {
  close: () => Promise<void>;
  /** Of the event-loop histogram: 1 ms where a goal is finer than the 10 ms default. */
  resolutionMs?: number;
  extra?: (type: string, message: unknown) => Promise<void> | void;
}

export function answerParent({ close, resolutionMs = 10, extra }: ChildOptions): void {
  const delay = monitorEventLoopDelay({ resolution: resolutionMs });
  let cpuFrom = process.cpuUsage();
  const ms = (ns: number) => ns / 1e6;
  let closing: Promise<void> | null = null;
  const shutdown = () => {
    closing ??= (async () => {
      delay.disable();
      await close();
    })();
    return closing;
  };
  process.on('message', async (message: unknown) => {
    const type = typeof message === 'string' ? message : String((message as { type?: unknown }).type);
    if (type === 'reset') {
      delay.disable();
      delay.reset();
      delay.enable();
      cpuFrom = process.cpuUsage();
      sendToParent({ type });
    } else if (type === 'stats') {
      const cpu = process.cpuUsage(cpuFrom);
      sendToParent({
        type,
        cpuMs: (cpu.user + cpu.system) / 1000,
        loopMaxMs: ms(delay.max),
        loopP99Ms: ms(delay.percentile(99)),
        loopMeanMs: ms(delay.mean),
      });
    } else if (type === 'close') {
      await shutdown();
      sendToParent({ type: 'closed' });
      process.disconnect();
    } else {
      await extra?.(type, message);
    }
  });
  process.on('disconnect', () => {
    void shutdown().finally(() => process.exit(0));
  });
}
