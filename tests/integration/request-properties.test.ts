/**
 * Property-based tests (fast-check) of every request schema and of the list query language, through
 * the real handlers behind the local gateway. The routes come from functions/http/routes.ts and
 * each handler's declared contract (`api({ body, params, query, list })`), so a new route is
 * covered as soon as it exists, and one whose schema has no generator fails here. For any
 * generated request: no 500; every error body is the catalogue's (docs/product.md#error-catalogue); and a refused
 * request leaves the stored state of both accounts (and of the e-mails it names) as it was.
 *
 * Runs are seeded: a failure prints the shrunk counterexample and the line that replays it
 * (CONVERSA_PROPERTY_SEED); `npm test` makes 8 runs per route, CONVERSA_PROPERTY_RUNS=full makes 30
 * (tests/support/property-runs.ts).
 */
import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { errorTexts, errorTitles } from '#contracts/errors.ts';
import { type HttpRoute, httpRoutes } from '#functions/http/routes.ts';
import type { ApiContract } from '#lib/api.ts';
import { assertProperty } from '../support/property-runs.ts';
import { type Fixtures, listQueryArbitrary, pathSegment, queryArbitraries, schemaArbitraries } from './request-arbitraries.ts';
import { call, callFrom } from './api.ts';
import { matrixTeam, type Team } from './route-access.ts';
import { emailsIn, type Scope, storedState } from './stored-state.ts';

/** Per route: a few on every `npm test`, all of them with CONVERSA_PROPERTY_RUNS=full. */
const runs = { quick: 8, full: 30 };

const keyOf = (route: HttpRoute) => `${route.method} ${route.path}`;

async function contractOf(route: HttpRoute): Promise<ApiContract> {
  const file = new URL(`../../functions/http/${route.handler}.ts`, import.meta.url).href;
  const module = (await import(/* @vite-ignore */ file)) as { handler: { contract?: ApiContract } };
  if (!module.handler.contract) throw new Error(`${keyOf(route)}: the handler is not built with api()`);
  return module.handler.contract;
}

interface Sent {
  status: number;
  body: any;
}

/**
 * One request from a loopback address of its own (127.x.y.z): the sign-in and code routes count
 * refusals per address, and this test must neither run into those budgets nor spend the budget of
 * 127.0.0.1, which the other test files share.
 */
function send(method: string, path: string, token: string | undefined, body: string | undefined): Promise<Sent> {
  const address = `127.${1 + Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.${1 + Math.floor(Math.random() * 250)}`;
  return callFrom(address)(method, path, { token, raw: body });
}

const titleOf: Record<number, string> = {
  400: errorTitles.badRequest,
  401: errorTitles.unauthorized,
  402: errorTitles.paymentRequired,
  403: errorTitles.forbidden,
  404: errorTitles.notFound,
  429: errorTitles.tooManyRequests,
  503: errorTitles.unavailable,
};
const catalogue = new Set<string>(Object.values(errorTexts));

/** Why an answer breaks the properties, or undefined. */
function problemOf(answer: Sent): string | undefined {
  const { status, body } = answer;
  if (status >= 500 && !(status === 503 && body?.message === errorTexts.paymentsNotConfigured)) return `status ${status}`;
  if (status < 400) return undefined;
  if (!body || typeof body !== 'object') return `error body is not JSON: ${String(body).slice(0, 200)}`;
  if (body.statusCode !== status) return `statusCode ${body.statusCode} in a ${status} answer`;
  if (body.error !== titleOf[status]) return `title ${body.error} for ${status}`;
  if (!catalogue.has(body.message)) return `message not in the catalogue: ${body.message}`;
  if (body.details !== undefined) {
    const ok = Array.isArray(body.details) && body.details.every((d: any) => typeof d?.path === 'string' && typeof d?.message === 'string');
    if (!ok) return `malformed details: ${JSON.stringify(body.details).slice(0, 300)}`;
  }
  return undefined;
}

interface Generated {
  path: string;
  body: string | undefined;
  /** The request as generated, for the e-mails it names. */
  value: unknown;
}

/** The team's own ids a path of this route may name (never ones a DELETE would destroy but the owner's, which it refuses). */
function ownIds(route: HttpRoute, f: Fixtures): string[] {
  const root = route.path.split('/')[1];
  if (route.method === 'DELETE') return root === 'users' ? [f.ownerId] : [];
  const pools: Record<string, string[]> = {
    accounts: [f.accountId],
    users: f.userIds,
    services: [f.serviceId, f.telegramServiceId],
    contacts: [f.contactId],
    messages: [f.messageId],
    webhooks: [f.telegramServiceId, f.serviceId],
  };
  return pools[root ?? ''] ?? [];
}

function requestArbitrary(route: HttpRoute, contract: ApiContract, f: Fixtures): fc.Arbitrary<Generated> | undefined {
  const names = [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
  const bodyOf = contract.body && schemaArbitraries.get(contract.body);
  const queryOf = contract.query && queryArbitraries.get(contract.query);
  if (!names.length && !bodyOf && !queryOf && !contract.list) return undefined;
  const raw = fc.constantFrom('{"name": ', '[1,2', 'null', '', 'true', '"\\ud800"', '{"a":1}{"b":2}');
  return (
    fc
      .record({
        segments: fc.tuple(...names.map(() => pathSegment(f, ownIds(route, f)))),
        body: bodyOf
          ? fc.oneof(
              { weight: 15, arbitrary: bodyOf(f).map((v) => ({ v, text: JSON.stringify(v) })) },
              raw.map((text) => ({ v: text, text })),
            )
          : fc.constant(undefined),
        query: queryOf ? queryOf(f) : fc.constant(undefined),
        list: contract.list ? fc.option(listQueryArbitrary(contract.list), { freq: 10 }) : fc.constant(null),
      })
      .map(({ segments, body, query, list }) => {
        const path = names.reduce((p, name, i) => p.replace(`{${name}}`, encodeURIComponent(segments[i]!)), route.path);
        const search = new URLSearchParams(query as Record<string, string> | undefined);
        if (list !== null) search.set('query', list);
        const qs = search.toString();
        return { path: qs ? `${path}?${qs}` : path, body: body?.text ?? (route.method === 'GET' ? undefined : ''), value: [body?.v, query, list] };
      })
      // CloudFront refuses URLs over 8,192 bytes before the API sees them (Node's server, 16 KB of
      // headers, answers 431 without a body): such requests never reach a handler.
      .filter((generated) => generated.path.length < 8000)
  );
}

let own: Team;
let foreign: Team;
let fixtures: Fixtures;
let contracts: Map<string, ApiContract>;
/**
 * The accounts' state as the previous route's property left it: read after its last run, a
 * refusal (no success since, so no background work of ours under way), or undefined. The routes
 * run one after the other and nothing else writes to these accounts, so the next route starts
 * from it instead of settling again (a settle is two reads 0.1 s apart).
 */
let carried: Record<string, unknown> | undefined;

beforeAll(async () => {
  [own, foreign] = await Promise.all([matrixTeam(true), matrixTeam(false)]);
  // A contact whose name is a long run of one letter, as channels deliver them: list filters
  // (`like`) must answer on it at once whatever the pattern.
  const longName = await call('POST', '/contacts', {
    token: own.owner.token,
    body: { name: `A${'a'.repeat(110)}`, serviceId: own.serviceId, data: { phoneNumber: '5511987650000', phoneCountry: 'BR' } },
  });
  expect(longName.status, JSON.stringify(longName.body)).toBe(201);
  fixtures = {
    accountId: own.accountId,
    ownerId: own.owner.id,
    userIds: [own.owner.id, own.admin.id, own.member.id],
    emails: [own.owner.email, own.admin.email, own.member.email],
    serviceId: own.serviceId,
    telegramServiceId: own.telegramServiceId,
    contactId: own.contactId,
    contactPhone: own.contactPhone,
    messageId: own.messageId,
    foreignIds: [foreign.accountId, foreign.owner.id, foreign.member.id, foreign.serviceId, foreign.contactId, foreign.messageId],
    foreignEmail: foreign.member.email,
  };
  contracts = new Map(await Promise.all(httpRoutes.map(async (r) => [keyOf(r), await contractOf(r)] as const)));
}, 120_000);

describe('request properties: the generators', () => {
  it('has a generator for every body and query schema a route declares', () => {
    const missing = httpRoutes.flatMap((route) => {
      const c = contracts.get(keyOf(route))!;
      return [
        ...(c.body && !schemaArbitraries.has(c.body) ? [`${keyOf(route)}: body`] : []),
        ...(c.query && !queryArbitraries.has(c.query) ? [`${keyOf(route)}: query`] : []),
      ];
    });
    expect(missing, 'routes whose schema has no generator in request-arbitraries.ts').toEqual([]);
  });
});

describe('request properties: regressions', () => {
  // Found by the properties: '.' as an id makes `/contacts/./read`, which URL parsing turns into
  // `/contacts/read`, a path of another method; the gateway answered 405 with the title 'Not Found'.
  it('a known path with another method, or with dot segments, answers the catalogue 404', async () => {
    for (const [method, path] of [
      ['POST', '/contacts/./read'],
      ['PATCH', '/contacts/x'],
      ['GET', '/messages/send'],
    ] as const) {
      const answer = await send(method, path, own.owner.token, method === 'GET' ? undefined : '{}');
      expect(answer, `${method} ${path}`).toEqual({ status: 404, body: { statusCode: 404, error: 'Not Found', message: 'Not found' } });
    }
  });
});

describe('request properties: any input', () => {
  for (const route of httpRoutes) {
    it(`${keyOf(route)}: no 500, errors from the catalogue, nothing written on a refusal`, async () => {
      const contract = contracts.get(keyOf(route))!;
      const arbitrary = requestArbitrary(route, contract, fixtures);
      if (!arbitrary) return; // Nothing to vary: no path parameter, body, query or list query.
      const token = contract.auth === 'public' ? undefined : own.owner.token;
      // The accounts' state is read after every refusal, and reused as the next run's "before"
      // (the next route's too, `carried`); the e-mails a request names are read around each run.
      const accounts: Scope = {
        accounts: [own, foreign].map((t) => ({ accountId: t.accountId, serviceIds: [t.serviceId, t.telegramServiceId], contactIds: [t.contactId] })),
        userIds: [...fixtures.userIds, foreign.owner.id, foreign.member.id],
        emails: [...fixtures.emails, fixtures.foreignEmail],
      };
      const settled = async () => {
        // Work a success started in the background (stream consumers, the channel double) ends first.
        let last = await storedState(accounts);
        for (let i = 0; i < 30; i++) {
          await new Promise((r) => setTimeout(r, 100));
          const next = await storedState(accounts);
          if (isDeepStrictEqual(next, last)) return next;
          last = next;
        }
        return last;
      };
      let known = carried;
      carried = undefined;
      await assertProperty(
        fc.asyncProperty(arbitrary, async (generated) => {
          const named: Scope = { accounts: [], userIds: [], emails: emailsIn(generated.value).filter((e) => !accounts.emails.includes(e)) };
          const before = { ...(known ?? (await settled())), ...(await storedState(named)) };
          known = undefined;
          const answer = await send(route.method, generated.path, token, generated.body);
          const problem = problemOf(answer);
          if (problem) throw new Error(`${problem}\nanswer: ${answer.status} ${JSON.stringify(answer.body)?.slice(0, 500)}`);
          if (answer.status >= 400) {
            const [state, namedAfter] = await Promise.all([storedState(accounts), storedState(named)]);
            expect({ ...state, ...namedAfter }, `a ${answer.status} (${answer.body.message}) wrote to the table or the bucket`).toEqual(before);
            known = state;
          }
        }),
        runs,
      );
      carried = known;
    }, 300_000);
  }
});
