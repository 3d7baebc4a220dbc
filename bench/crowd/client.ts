/**
 * One client process of the crowd bench (forked by crowd.bench.ts): half the viewers and half
 * the chatter pairs, so 11 000 sockets and their frames are read by two processes and the
 * client side is not what limits the figures. Driven over IPC (support/child.ts, which also
 * answers 'reset' / 'stats' with this process's CPU time and event-loop delay):
 *   'viewers'  { specs, batch }           → { connected, failed, errors, ms }
 *   'chatters' { specs, batch }           → { ms }
 *   'chat'     { rate, ms, first, settle } → ChatRun (chat.ts)
 *   'posts'    { posts, timeoutMs }        → PostReceipts (viewers.ts), then forgets them
 * A command that throws answers { error }.
 */
import { answerParent, sendToParent } from '../support/child.ts';
import { createChat } from './chat.ts';
import { closeHttp } from './http.ts';
import type { ChatterSpec, SentPost, ViewerSpec } from './shared.ts';
import { createViewers } from './viewers.ts';

const viewers = createViewers();
let chat: ReturnType<typeof createChat> | null = null;

type Handler = (data: never) => Promise<object>;
const handlers: Record<string, Handler> = {
  viewers: ({ specs, batch }: { specs: ViewerSpec[]; batch: number }) => viewers.connect(specs, batch),
  chatters: ({ specs, batch }: { specs: ChatterSpec[]; batch: number }) => {
    chat = createChat(specs);
    return chat.connect(batch);
  },
  chat: async ({ rate, ms, first, settle }: { rate: number; ms: number; first: number; settle: number }) => {
    if (!chat) throw new Error('no chatters');
    return chat.run(rate, ms, first, settle);
  },
  posts: async ({ posts, timeoutMs }: { posts: SentPost[]; timeoutMs: number }) => {
    const result = await viewers.collect(posts, timeoutMs);
    viewers.clear();
    return { ...result, lost: viewers.lost() };
  },
};

answerParent({
  close: async () => {
    await Promise.all([viewers.close(), chat?.close()]);
    closeHttp();
  },
  extra: async (type, message) => {
    const handler = handlers[type];
    if (!handler) return;
    try {
      sendToParent({ type, ...(await handler((message as { data: never }).data)) });
    } catch (error) {
      sendToParent({ type, error: String(error) });
    }
  },
});
sendToParent({ type: 'listening', port: 0 });
