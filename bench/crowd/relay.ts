/**
 * The crowd bench's reference: the messages bench's bare relay (messages/relay.ts: node:http +
 * ws, everything in memory, the bearer's `sub` read unchecked) with the viewer's side added.
 * A socket may send `{type:'view', west,south,east,north}` (kept, parsed with the server's own
 * view.ts so both test a point alike), `{type:'ping'}` (answered `pong`) and the `message.send`
 * request (answered by its `reply`, as the app's hub does); POST /api/posts
 * makes a marker and writes its `post.created` frame, serialised once, to every socket whose
 * view holds the point, by a plain scan of the views (at 10 000 views a scan costs ~0.1 ms a
 * post). No database, no bus, no rule: the floor the app's crowd figures are set against.
 */
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import { WebSocketServer, type WebSocket } from 'ws';
import { parseView, viewContains, type View } from '../../server/src/realtime/view.ts';

/** The subject of a JWT, unverified (the reference does no crypto). */
function subject(token: string | undefined): string | null {
  try {
    const sub = (JSON.parse(Buffer.from(token?.split('.')[1] ?? '', 'base64url').toString()) as { sub?: unknown }).sub;
    return typeof sub === 'string' ? sub : null;
  } catch {
    return null;
  }
}

async function readBody(req: http.IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return chunks.length ? (JSON.parse(Buffer.concat(chunks).toString()) as Record<string, unknown>) : {};
}

function reply(res: http.ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
  });
  res.end(text);
}

interface Conversation {
  id: string;
  participant1Id: string;
  participant2Id: string;
}

/** Who listens to what: sockets by user (messages) and by view (posts). */
function createHub() {
  const socketsOf = new Map<string, Set<WebSocket>>();
  const viewOf = new Map<WebSocket, View>();
  return {
    /** Files the socket under its new user (null: a visitor), out of its previous one's. */
    signIn(socket: WebSocket, previous: string | null, user: string | null): void {
      if (previous) socketsOf.get(previous)?.delete(socket);
      if (!user) return;
      let set = socketsOf.get(user);
      if (!set) socketsOf.set(user, (set = new Set()));
      set.add(socket);
    },
    watch: (socket: WebSocket, view: View) => void viewOf.set(socket, view),
    forget(socket: WebSocket, user: string | null): void {
      if (user) socketsOf.get(user)?.delete(socket);
      viewOf.delete(socket);
    },
    toUsers(users: string[], frame: Buffer): void {
      for (const user of users) for (const socket of socketsOf.get(user) ?? []) socket.send(frame, { binary: false });
    },
    toViews(latitude: number, longitude: number, frame: Buffer): void {
      for (const [socket, view] of viewOf)
        if (viewContains(view, latitude, longitude)) socket.send(frame, { binary: false });
    },
  };
}
type Hub = ReturnType<typeof createHub>;

/** The three routes the bench calls, in memory (a message also comes over the socket). */
function createRoutes(hub: Hub) {
  const conversations = new Map<string, Conversation>();
  const byPair = new Map<string, string>();
  const frame = (value: unknown) => Buffer.from(JSON.stringify(value));
  return {
    conversation(userId: string, body: Record<string, unknown>): [number, unknown] {
      const [p1, p2] = [userId, String(body.userId)].sort();
      const existing = byPair.get(`${p1}:${p2}`);
      if (existing) return [200, { conversation: conversations.get(existing) }];
      const conversation = { id: randomUUID(), participant1Id: p1, participant2Id: p2 };
      byPair.set(`${p1}:${p2}`, conversation.id);
      conversations.set(conversation.id, conversation);
      return [201, { conversation }];
    },
    message(userId: string, conversationId: string, body: Record<string, unknown>): [number, unknown] {
      const conversation = conversations.get(conversationId);
      if (!conversation) return [404, { error: { code: 'not_found' } }];
      const message = { id: randomUUID(), conversationId, senderId: userId, content: String(body.content ?? '') };
      const sender = { id: userId, nickname: 'membre', profilePhotoUrl: null };
      const event = { type: 'message.created', data: { message: { ...message, imageUrl: null, read: false }, sender } };
      hub.toUsers([conversation.participant1Id, conversation.participant2Id], frame(event));
      return [201, { message }];
    },
    post(userId: string, body: Record<string, unknown>): [number, unknown] {
      const latitude = Number(body.latitude);
      const longitude = Number(body.longitude);
      const marker = { id: randomUUID(), userId, category: String(body.category), latitude, longitude };
      const post = { ...marker, nickname: 'membre', hasPulseEffect: false, createdAt: new Date().toISOString() };
      hub.toViews(latitude, longitude, frame({ type: 'post.created', data: { post: { ...post, photoUrl: null } } }));
      return [201, { post: { ...post, content: String(body.content ?? '') } }];
    },
  };
}

async function handle(routes: ReturnType<typeof createRoutes>, req: http.IncomingMessage, res: http.ServerResponse) {
  try {
    const userId = subject(/^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '')?.[1]);
    if (!userId) return reply(res, 401, { error: { code: 'not_authenticated' } });
    const body = await readBody(req);
    const messages = /^\/api\/conversations\/([^/]+)\/messages$/.exec(req.url ?? '');
    if (req.method !== 'POST') return reply(res, 404, { error: { code: 'not_found' } });
    if (req.url === '/api/posts') return reply(res, ...routes.post(userId, body));
    if (req.url === '/api/conversations') return reply(res, ...routes.conversation(userId, body));
    if (messages) return reply(res, ...routes.message(userId, messages[1], body));
    reply(res, 404, { error: { code: 'not_found' } });
  } catch {
    reply(res, 400, { error: { code: 'bad_request' } });
  }
}

/** One socket's frames: auth, view, ping and the message.send request, as the app's hub reads them. */
function onSocket(hub: Hub, routes: ReturnType<typeof createRoutes>, socket: WebSocket): void {
  let user: string | null = null;
  socket.on('close', () => hub.forget(socket, user));
  socket.on('message', (raw) => {
    let frame: { type?: string; token?: string; ref?: string; conversationId?: string; content?: unknown };
    try {
      frame = JSON.parse(String(raw));
    } catch {
      return;
    }
    if (frame.type === 'view') {
      const view = parseView(frame);
      if (view) hub.watch(socket, view);
    } else if (frame.type === 'ping') socket.send('{"type":"pong"}');
    else if (frame.type === 'message.send') {
      const [status, body] = user
        ? routes.message(user, String(frame.conversationId), { content: frame.content })
        : [401, { error: { code: 'not_authenticated' } }];
      const answer = status === 201 ? { data: body } : { status, ...(body as object) };
      socket.send(JSON.stringify({ type: 'reply', ref: frame.ref, ...answer }));
    } else if (frame.type === 'auth') {
      const previous = user;
      user = subject(frame.token);
      hub.signIn(socket, previous, user);
      socket.send(JSON.stringify({ type: 'ready', userId: user }));
    }
  });
  socket.send(JSON.stringify({ type: 'ready', userId: null }));
}

export async function startCrowdRelay(): Promise<{ port: number; close(): Promise<void> }> {
  const hub = createHub();
  const routes = createRoutes(hub);
  const server = http.createServer((req, res) => void handle(routes, req, res));
  const wss = new WebSocketServer({ server, path: '/api/realtime', maxPayload: 16 * 1024 });
  wss.on('connection', (socket) => onSocket(hub, routes, socket));
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
