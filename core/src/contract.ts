/**
 * The API contract's plain constants, kept apart from the zod schemas that use them (schemas/*.ts
 * re-export them): the web app imports these on its first load without pulling zod in.
 */
/** "A basic address pattern": something@something.something, no spaces. */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * The header refresh and logout must carry (the refresh token is a SameSite=Strict cookie): a
 * cross-site page cannot add a custom header without a CORS preflight the server never grants.
 * Checked by the server (auth/csrf.ts), sent by the web app (lib/auth-tokens.ts).
 */
export const CSRF_HEADER = { name: 'x-requested-with', value: 'moodmap' } as const;

/** A comment's maximum length, the same as a post's text. */
export const COMMENT_TEXT_MAX = 500;

/**
 * The embedded basemap's vector tiles exist up to this zoom; the map overzooms them above. From
 * z8 every layer carries all its data (the places of deeper zooms carry their `minzoom`).
 */
export const GEO_TILE_MAX_ZOOM = 8;

/**
 * A chat message's maximum length: the sanitiser's cut (SANITISED_TEXT_MAX), which also
 * keeps a realtime event far below PostgreSQL's 8000-byte NOTIFY payload.
 */
export const MESSAGE_TEXT_MAX = 1000;

/**
 * Requests a signed-in tab may make over its realtime socket rather than over HTTP: the same rules
 * and answers as their HTTP route, without a request per message. Each carries a `ref` of the
 * client's (1 to SOCKET_REF_MAX characters) and is answered once on that socket:
 *   client → { "type": "message.send", "ref", "conversationId", "content" }
 *   server → { "type": "reply", "ref", "data": <the HTTP route's 2xx body> }
 *         or { "type": "reply", "ref", "status", "error": { "code", "message" }, "retryAfter"? }
 */
export const SOCKET_REQUESTS = { messageSend: 'message.send' } as const;
export const SOCKET_REPLY = 'reply';
export const SOCKET_REF_MAX = 64;

/** Messages per page of a thread; older ones come with `before`. */
export const MESSAGES_PAGE_SIZE = 50;

/** Upper bound a client may ask for with `limit` (catch-up after a reconnect). */
export const MESSAGES_PAGE_MAX = 200;

/** Conversations per page of the list. */
export const CONVERSATIONS_PAGE_SIZE = 50;

export const MESSAGE_EVENTS = {
  created: 'message.created',
  read: 'message.read',
  conversationUpdated: 'conversation.updated',
  /** A message request for its recipient: the conversation's id only, no message, no toast. */
  request: 'message.request',
  /** The other person deleted their account: the conversation stays, without them, read-only. */
  closed: 'conversation.closed',
} as const;

/** Most cards one `GET /api/posts/cards` reads (a 100 m group's list). */
export const POST_CARDS_MAX = 50;

/** How long a tab waits after the map stops moving before it sends its new view. */
export const REALTIME_VIEW_DEBOUNCE_MS = 250;
