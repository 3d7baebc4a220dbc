/**
 * The baseline of the messages bench: a bare `node:http` + `ws` server speaking the same
 * protocol as MoodMap (POST /api/conversations, POST /api/conversations/:id/messages,
 * WebSocket /api/realtime with { type: 'auth' } → { type: 'ready' } and the `message.send`
 * request answered by a `reply`), so the bench drives it
 * with exactly the same client code. It keeps everything in memory, verifies nothing (the
 * bearer's `sub` is read, not checked) and relays each message to both participants' sockets
 * through a userId → sockets index: the floor any messaging server on this machine sits on.
 */
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import { WebSocketServer, type WebSocket } from 'ws';

/** The subject of a JWT, unverified (the baseline does no crypto). */
function subject(token: string | undefined): string | null {
  if (!token) return null;
  try {
    const sub = (JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString()) as { sub?: unknown }).sub;
    return typeof sub === 'string' ? sub : null;
  } catch {
    return null;
  }
}

function readBody(req: http.IncomingMessage): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      try {
        resolve(chunks.length ? (JSON.parse(Buffer.concat(chunks).toString()) as Record<string, unknown>) : {});
      } catch (error) {
        reject(error);
      }
    });
    req.on('error', reject);
  });
}

export interface RelayServer {
  port: number;
  close(): Promise<void>;
}

export async function startRelay(): Promise<RelayServer> {
  const socketsOf = new Map<string, Set<WebSocket>>();
  const conversations = new Map<string, { id: string; participant1Id: string; participant2Id: string }>();
  const byPair = new Map<string, string>();

  const send = (res: http.ServerResponse, status: number, body: unknown) => {
    const text = JSON.stringify(body);
    res.writeHead(status, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': Buffer.byteLength(text),
    });
    res.end(text);
  };

  /** Sends a message to both participants' sockets; null: no such conversation. */
  function relay(userId: string, conversationId: string, content: unknown) {
    const conversation = conversations.get(conversationId);
    if (!conversation) return null;
    const message = {
      id: randomUUID(),
      conversationId: conversation.id,
      senderId: userId,
      content: String(content ?? ''),
      imageUrl: null,
      read: false,
      createdAt: new Date().toISOString(),
    };
    const frame = JSON.stringify({
      type: 'message.created',
      data: { message, sender: { id: userId, nickname: 'membre', profilePhotoUrl: null } },
    });
    for (const participant of [conversation.participant1Id, conversation.participant2Id]) {
      for (const socket of socketsOf.get(participant) ?? []) socket.send(frame);
    }
    return message;
  }

  const server = http.createServer(async (req, res) => {
    try {
      const userId = subject(/^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '')?.[1]);
      if (!userId) return send(res, 401, { error: { code: 'not_authenticated' } });
      const body = await readBody(req);
      if (req.method === 'POST' && req.url === '/api/conversations') {
        const other = String(body.userId);
        const [p1, p2] = userId < other ? [userId, other] : [other, userId];
        const key = `${p1}:${p2}`;
        let id = byPair.get(key);
        const created = !id;
        if (!id) {
          id = randomUUID();
          byPair.set(key, id);
          conversations.set(id, { id, participant1Id: p1, participant2Id: p2 });
        }
        return send(res, created ? 201 : 200, { conversation: conversations.get(id) });
      }
      const match = /^\/api\/conversations\/([^/]+)\/messages$/.exec(req.url ?? '');
      const message = match && req.method === 'POST' ? relay(userId, match[1], body.content) : null;
      if (!message) return send(res, 404, { error: { code: 'not_found' } });
      send(res, 201, { message });
    } catch {
      send(res, 400, { error: { code: 'bad_request' } });
    }
  });

  const wss = new WebSocketServer({ server, path: '/api/realtime', maxPayload: 16 * 1024 });
  wss.on('connection', (socket) => {
    let user: string | null = null;
    const forget = () => {
      if (user) socketsOf.get(user)?.delete(socket);
    };
    socket.on('close', forget);
    socket.on('message', (raw) => {
      let message: { type?: string; token?: string; ref?: string; conversationId?: string; content?: unknown };
      try {
        message = JSON.parse(String(raw));
      } catch {
        return;
      }
      if (message.type === 'message.send') {
        const sent = user ? relay(user, String(message.conversationId), message.content) : null;
        const answer = sent ? { data: { message: sent } } : { status: 404, error: { code: 'not_found' } };
        socket.send(JSON.stringify({ type: 'reply', ref: message.ref, ...answer }));
        return;
      }
      if (message.type !== 'auth') return;
      forget();
      user = subject(message.token);
      if (user) {
        let set = socketsOf.get(user);
        if (!set) socketsOf.set(user, (set = new Set()));
        set.add(socket);
      }
      socket.send(JSON.stringify({ type: 'ready', userId: user }));
    });
    socket.send(JSON.stringify({ type: 'ready', userId: null }));
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as { port: number }).port,
    close: async () => {
      for (const socket of wss.clients) socket.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
