/**
 * Every route of the built app, read from Fastify's own route tree (`printRoutes`), so a route
 * added tomorrow is fuzzed without touching the suite.
 */
import type { FastifyInstance, HTTPMethods } from 'fastify';

export interface Route {
  method: HTTPMethods;
  /** As declared: `/api/posts/:id`, `*`. */
  url: string;
}

/**
 * Parses the radix tree `printRoutes()` draws, e.g.
 *   └── /
 *       ├── api/
 *       │   ├── p
 *       │   │   ├── osts (GET, HEAD, POST)
 *       │   │   │   └── /
 *       │   │   │       └── :id (GET, HEAD, DELETE)
 * Each level indents by four characters; a node's text continues its parent's path, and only
 * nodes with methods are routes. (`commonPrefix: false` is not used: it drops the text of a
 * route-less parent, printing `/media/*` as `*`.)
 */
export function listRoutes(app: FastifyInstance): Route[] {
  const routes: Route[] = [];
  const stack: string[] = [];
  for (const line of app.printRoutes().split('\n')) {
    const match = /^((?:[│ ] {3})*)[├└]── (.*?)(?: \(([^)]*)\))?$/u.exec(line);
    if (!match) continue;
    const depth = match[1].length / 4;
    stack.length = depth;
    const path = (stack.at(-1) ?? '') + match[2];
    stack.push(path);
    for (const method of (match[3] ?? '')
      .split(',')
      .map((m) => m.trim())
      .filter((m) => m && m !== '-')) {
      routes.push({ method: method as HTTPMethods, url: path });
    }
  }
  // The parse must agree with the router: a route it invented would be fuzzed as a 404.
  for (const route of routes) {
    if (!app.hasRoute({ method: route.method, url: route.url }))
      throw new Error(`printRoutes parse gave an unknown route: ${route.method} ${route.url}`);
  }
  return routes;
}
