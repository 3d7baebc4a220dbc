/**
 * The dev-only routes: every path under /dev/ (the dev outbox, the dev checkout, staff roles for
 * the browser journeys). They are never registered in production: a route under /dev/ there
 * stops the start-up. Elsewhere each of them answers only to a request made on this machine and
 * not relayed: `npm start` listens on every interface (to open the app from a phone on the LAN),
 * and these routes grant roles and show every account's links. Anyone else gets the 404 of a
 * route that does not exist.
 */
import ipaddr from 'ipaddr.js';
import type { FastifyInstance, FastifyRequest, onRequestHookHandler } from 'fastify';
import { notFound } from '../errors.ts';

export const DEV_PATH_PREFIX = '/dev/';

/** Headers a proxy or tunnel adds: their presence means the request came from elsewhere. */
const RELAY_HEADERS = [
  'forwarded',
  'x-real-ip',
  'via',
  'true-client-ip',
  'cf-connecting-ip',
  'x-client-ip',
  'x-cluster-client-ip',
  'fastly-client-ip',
];

/** 127.0.0.0/8, ::1 and their IPv4-mapped form. */
export function isLoopback(address: string | undefined): boolean {
  return !!address && ipaddr.isValid(address) && ipaddr.process(address).range() === 'loopback';
}

/**
 * The TCP peer, not request.ip: with TRUST_PROXY, X-Forwarded-For (set by anyone) decides
 * request.ip. A request relayed by a proxy or tunnel on this machine has a loopback peer too.
 */
export function isLocalUnrelayed(request: FastifyRequest): boolean {
  const relayed = Object.keys(request.headers).some(
    (name) => name.startsWith('x-forwarded-') || RELAY_HEADERS.includes(name),
  );
  return !relayed && isLoopback(request.socket.remoteAddress);
}

// A callback hook: no promise for the common case of a local request.
const refuseUnlessLocal: onRequestHookHandler = (request, _reply, done) => {
  done(isLocalUnrelayed(request) ? undefined : notFound());
};

/** Before any route: each route under /dev/ gets the guard first, or fails the start in production. */
export function installDevOnlyGuard(app: FastifyInstance, env: string): void {
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith(DEV_PATH_PREFIX)) return;
    if (env === 'production')
      throw new Error(`Route de développement enregistrée en production : ${route.method} ${route.url}`);
    const own =
      route.onRequest === undefined ? [] : Array.isArray(route.onRequest) ? route.onRequest : [route.onRequest];
    route.onRequest = [refuseUnlessLocal, ...own];
  });
}
