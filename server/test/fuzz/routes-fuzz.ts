/**
 * A property-based fuzz over every route of the API, read from the app itself
 * (route-list.ts). Thousands of hostile requests (requests.ts) drawn from a fixed seed, signed
 * out and signed in, through `app.inject`; the exhaustive sweeps (sweeps.ts: a wrong-typed value
 * in each field of each body, odd dates in each cursor); then a sample over a real socket and
 * the cases only Node's HTTP parser sees (wire.ts: 431 for big headers, broken request lines).
 * Every answer must be free of 5xx and stack traces, and every error under /api must have the
 * API's shape with a French catalogue text (answers.ts).
 *
 * The run collects every bad answer instead of stopping at the first, and prints one entry per
 * distinct defect (problem, route, status, code) with its first request: one run tells what is
 * still broken. A failure is reproduced with the same seed; FUZZ_SEED / FUZZ_RUNS explore further.
 * Run by routes.pglite.fuzz.test.ts and routes.postgres.fuzz.test.ts.
 */
import fc from 'fast-check';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAuthTestApp, type AuthTestApp } from '../helpers/auth.ts';
import type { DbEngine } from '../../src/db/client.ts';
import { failureOf, problemWith, report, type Answer, type Failure } from './answers.ts';
import { createWorld, type World } from './fixtures.ts';
import { bodyBytes, describeRequest, headersOf, requestArbitrary, urlOf, type FuzzRequest } from './requests.ts';
import { cursorRequests, typeConfusionRequests } from './sweeps.ts';
import { listRoutes, type Route } from './route-list.ts';
import { RAW_CASES, rawExchange, wireExchange } from './wire.ts';

const SEED = Number(process.env.FUZZ_SEED ?? 20_240_613);
/** Requests per caller (signed out, signed in) through inject, and through the socket. */
const RUNS = Number(process.env.FUZZ_RUNS ?? 1500);
const WIRE_RUNS = Number(process.env.FUZZ_WIRE_RUNS ?? 300);
const TEN_MINUTES = 10 * 60_000;

/** The whole fuzz on one engine, one test file per engine so that the two run side by side. */
export function fuzzEveryRoute(engine: DbEngine, enabled = true): void {
  describe.runIf(enabled)(`hostile requests to every route on ${engine}`, () => {
    let t: AuthTestApp;
    let world: World;
    let routes: Route[];
    let port: number;

    beforeAll(async () => {
      t = await createAuthTestApp(engine);
      routes = listRoutes(t.app);
      world = await createWorld(t);
      await t.app.listen({ host: '127.0.0.1', port: 0 });
      port = (t.app.server.address() as { port: number }).port;
    }, 120_000);
    afterAll(() => t?.close());

    const routeName = (request: FuzzRequest) => `${request.route.method} ${request.route.url}`;

    function check(failures: Failure[], request: FuzzRequest, signedIn: boolean, answer: Answer): void {
      const problem = problemWith(request.method, urlOf(request), answer);
      if (problem) failures.push(failureOf(problem, routeName(request), describeRequest(request, signedIn), answer));
    }

    function expectNoFailures(failures: Failure[]): void {
      // Printed in full as well: the assertion message may be cut by the reporter.
      if (failures.length > 0) console.log(`\n[fuzz on ${engine}] ${report(failures)}`);
      expect(failures.length, report(failures)).toBe(0);
    }

    it('reads every route from the app itself', () => {
      // Spot checks that the route tree was parsed, not the list of what is fuzzed.
      expect(routes).toContainEqual({ method: 'POST', url: '/api/auth/login' });
      expect(routes).toContainEqual({ method: 'POST', url: '/api/conversations/:id/messages' });
      expect(routes).toContainEqual({ method: 'PATCH', url: '/api/comments/:id' });
      expect(routes.length).toBeGreaterThan(40);
    });

    it.each([
      ['a signed-out caller', false],
      ['a signed-in caller', true],
    ])(
      'answers %s with no 5xx, no stack and only the API error shape',
      async (_who, signedIn) => {
        const requests = fc.sample(requestArbitrary(routes, world.ids), {
          seed: SEED + (signedIn ? 1 : 0),
          numRuns: RUNS,
        });
        const failures: Failure[] = [];
        for (const request of requests) {
          const res = await t.app.inject({
            method: request.method,
            url: urlOf(request),
            headers: headersOf(request, signedIn ? world.token() : undefined),
            payload: bodyBytes(request.body),
            remoteAddress: request.ip,
          } as InjectOptions);
          check(failures, request, signedIn, {
            status: res.statusCode,
            body: res.body,
            contentType: String(res.headers['content-type'] ?? ''),
          });
          if (signedIn && res.statusCode === 401) await world.ensureSignedIn();
        }
        expectNoFailures(failures);
      },
      TEN_MINUTES,
    );

    /** Sends each request signed in and checks its answer. */
    async function sweep(requests: FuzzRequest[]): Promise<void> {
      const failures: Failure[] = [];
      for (const request of requests) {
        const res = await t.app.inject({
          method: request.method,
          url: urlOf(request),
          headers: headersOf(request, world.token()),
          payload: bodyBytes(request.body),
          remoteAddress: request.ip,
        } as InjectOptions);
        check(failures, request, true, { status: res.statusCode, body: res.body });
        if (res.statusCode === 401) await world.ensureSignedIn();
      }
      expectNoFailures(failures);
    }

    it(
      'refuses a value of the wrong type in any field of any body with a 4xx in the API shape',
      async () => {
        await sweep(typeConfusionRequests(routes, world.ids));
      },
      TEN_MINUTES,
    );

    it(
      'refuses odd dates in any cursor parameter of any GET route with a 4xx in the API shape',
      async () => {
        await sweep(cursorRequests(routes, world.ids));
      },
      TEN_MINUTES,
    );

    it(
      'answers the same kinds of requests over a real socket alike',
      async () => {
        const requests = fc.sample(requestArbitrary(routes, world.ids), { seed: SEED + 2, numRuns: WIRE_RUNS });
        const failures: Failure[] = [];
        for (const [i, request] of requests.entries()) {
          const signedIn = i % 2 === 1;
          let answer: Answer;
          try {
            answer = await wireExchange(port, request, signedIn ? world.token() : undefined);
          } catch (error) {
            answer = { status: 0, body: `<${(error as Error).message}>` };
            failures.push(failureOf('no answer', routeName(request), describeRequest(request, signedIn), answer));
            continue;
          }
          check(failures, request, signedIn, answer);
          if (signedIn && answer.status === 401) await world.ensureSignedIn();
        }
        expectNoFailures(failures);
      },
      TEN_MINUTES,
    );

    it(
      'answers what only the HTTP parser and the router see in the API shape (431 for big headers)',
      async () => {
        const failures: Failure[] = [];
        for (const rawCase of RAW_CASES) {
          const shown = `${rawCase.name}: ${JSON.stringify(rawCase.bytes.length > 200 ? `${rawCase.bytes.slice(0, 200)}…` : rawCase.bytes)}`;
          const route = `raw ${rawCase.url}`;
          let answer: Answer;
          try {
            answer = await rawExchange(port, rawCase.bytes);
          } catch (error) {
            failures.push(failureOf('no answer', route, shown, { status: 0, body: `<${(error as Error).message}>` }));
            continue;
          }
          if (rawCase.status !== undefined && answer.status !== rawCase.status) {
            failures.push(failureOf(`status ${answer.status} instead of ${rawCase.status}`, route, shown, answer));
            continue;
          }
          // A request the parser cannot read may be closed without an answer; one it answers is checked.
          const problem =
            answer.status === 0 && answer.body === undefined ? null : problemWith('GET', rawCase.url, answer);
          if (problem) failures.push(failureOf(problem, route, shown, answer));
        }
        expectNoFailures(failures);
      },
      TEN_MINUTES,
    );
  });
}
