/**
 * The route matrix (ADR-0103): every route of functions/http/routes.ts × every kind of caller, with
 * the status its access class (tests/integration/route-access.ts) expects. Callers: no token, a
 * malformed one, an expired one (signed with the runtime's own secret), a revoked one, a member, an
 * admin and the owner of the team's account, and two strangers sending the same requests with the
 * victim account's ids in path, body and list query: the owner of another account, and a user of
 * another account that bears the victim owner's e-mail (added there with a password its admin chose,
 * the address even confirmed by the victim: the account takeover (docs/security.md, "Who owns an address") joined users by that
 * string). The strangers' answers must carry none of the victim's ids, and the victim's items must
 * read the same after the matrix.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SignJWT } from 'jose';
import { ulid } from 'ulid';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { httpRoutes } from '#functions/http/routes.ts';
import { type Answer, call, lastMail, newOwner, setPlan, signIn } from './api.ts';
import { apiTokenScopes } from '#contracts/api-tokens.ts';
import { freshToken, gatesOf, newApiToken, withoutSpares, matrixTeam, type MatrixEntry, type Person, routeAccess, type Team } from './route-access.ts';

const keyOf = (route: { method: string; path: string }) => `${route.method} ${route.path}`;
const routeKeys = httpRoutes.map(keyOf);

type Caller =
  | 'no token'
  | 'malformed token'
  | 'expired token'
  | 'revoked token'
  | 'member'
  | 'admin'
  | 'owner'
  | 'owner of another account'
  | "another account's user with the victim owner's e-mail"
  | 'api token with every scope'
  | "api token without the route's scope"
  | 'revoked api token';
const strangers: Caller[] = ['owner of another account', "another account's user with the victim owner's e-mail"];
const anonymous: Caller[] = ['no token', 'malformed token', 'expired token', 'revoked token'];

/** The status a caller of a class gets for a valid request. */
function expected(entry: MatrixEntry, caller: Caller): number {
  if (anonymous.includes(caller)) return 401;
  if (strangers.includes(caller)) return entry.stranger ?? 404;
  if (caller === 'member' && (entry.access === 'admin' || entry.access === 'owner')) return 403;
  if (caller === 'admin' && entry.access === 'owner') return 403;
  return entry.ok;
}

let victim: Team;
let team: Team;
let stranger: Person & { accountId: string };
let twin: Person & { accountId: string; password: string };
let expiredToken: string;
let revokedToken: string;
let revokedApiToken: string;
let before: unknown;

/** What the victim account's owner reads of it: everything a stranger's write could have changed. */
async function snapshot(t: Team) {
  const token = t.owner.token;
  const read = async (path: string) => {
    const answer = await call('GET', path, { token });
    expect(answer.status, `victim reads ${path}`).toBe(200);
    return answer.body;
  };
  const everything = `?query=${encodeURIComponent(JSON.stringify({ perPage: 100 }))}`;
  const account = await read(`/accounts/${t.accountId}`);
  const users = await read(`/users${everything}`);
  const services = await read(`/services${everything}`);
  const contactIds = [t.contactId, await t.spareContact()];
  const contacts = await Promise.all(contactIds.map((id) => read(`/contacts/${id}`)));
  const messages = await read(`/messages?query=${encodeURIComponent(JSON.stringify({ where: { contactId: t.contactId } }))}`);
  return {
    account: { name: account.name, updatedAt: account.updatedAt, plan: account.plan },
    users: users.data.map((u: any) => ({ id: u.id, name: u.name, email: u.email, isAdmin: u.isAdmin, archivedAt: u.archivedAt, updatedAt: u.updatedAt })),
    services: services.data.map((s: any) => ({ id: s.id, name: s.name, type: s.type, status: s.status, updatedAt: s.updatedAt })),
    contacts: contacts.map((c: any) => ({ id: c.id, name: c.name, data: c.data, archivedAt: c.archivedAt, unread: c.unread })),
    messages: messages.data.map((m: any) => ({ id: m.id, body: m.body ?? m.text, fromMe: m.fromMe })),
  };
}

async function expiredTokenOf(t: Team): Promise<string> {
  const secret = readFileSync(join(inject('dataDir'), 'jwt-secret'), 'utf8').trim();
  const past = Math.floor(Date.now() / 1000) - 3600;
  return new SignJWT({ acc: t.accountId })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(t.member.id)
    .setJti(ulid())
    .setIssuer('conversa')
    .setIssuedAt(past - 60)
    .setExpirationTime(past)
    .sign(new TextEncoder().encode(secret));
}

/** A user of another account with the victim owner's e-mail, confirmed by the victim, signed in with the password its admin set. */
async function victimOwnersTwin(t: Team) {
  const other = await newOwner('Equipe Gêmea', 'Gêmea');
  await setPlan(other.accountId, { productName: 'Pro', users: 50, connections: 30, contacts: 1000 });
  const password = 'Gemea#Senha123';
  const added = await call('POST', '/users', { token: other.token, body: { name: 'Gêmea', email: t.owner.email, password, isAdmin: true } });
  expect(added.status).toBe(201);
  await call('POST', '/auth/resend-verification', { body: { userId: added.body.id } });
  const code = (await lastMail(t.owner.email))!.code!;
  expect((await call('POST', '/auth/verify-email', { body: { userId: added.body.id, verifyCode: code } })).status).toBe(204);
  const token = await signIn(t.owner.email, password, other.accountId);
  return { id: added.body.id as string, email: t.owner.email, token, accountId: other.accountId, password };
}

beforeAll(async () => {
  [victim, team] = await Promise.all([matrixTeam(false), matrixTeam(true)]);
  const other = await newOwner('Outra Equipe', 'Estranha');
  await setPlan(other.accountId, { productName: 'Pro', users: 50, connections: 30, contacts: 1000 });
  stranger = { id: other.user.id, email: other.email, token: other.token, accountId: other.accountId };
  twin = await victimOwnersTwin(victim);
  expiredToken = await expiredTokenOf(team);
  revokedToken = await freshToken(team, team.member);
  expect((await call('POST', '/auth/logout', { token: revokedToken })).status).toBe(204);
  const revokedApi = await newApiToken(team, [...apiTokenScopes]);
  expect((await call('DELETE', `/api-tokens/${revokedApi.id}`, { token: team.owner.token })).status).toBe(200);
  revokedApiToken = revokedApi.secret;
  before = await snapshot(victim);
}, 60_000);

describe('route matrix: the table', () => {
  it('has an entry for every route and a route for every entry', () => {
    expect(
      routeKeys.filter((key) => !routeAccess[key]),
      'routes without a matrix entry',
    ).toEqual([]);
    expect(
      Object.keys(routeAccess).filter((key) => !routeKeys.includes(key)),
      'entries without a route',
    ).toEqual([]);
  });

  it("states classes its handlers' gates allow", () => {
    // A folder, not a module: the # aliases do not resolve in a URL (the rewrite to them broke this line).
    const httpDir = fileURLToPath(new URL('../../functions/http', import.meta.url));
    const wrong = httpRoutes.flatMap((route) => {
      const entry = routeAccess[keyOf(route)];
      if (!entry) return [];
      const source = readFileSync(join(httpDir, `${route.handler}.ts`), 'utf8');
      const gate = source.match(/\bapi\(\{\s*auth:\s*'(\w+)'/)?.[1];
      return gatesOf[entry.access].includes(gate) ? [] : [`${keyOf(route)}: ${entry.access} behind gate ${gate ?? 'none'}`];
    });
    expect(wrong).toEqual([]);
  });
});

/** A row's request, its answer and what the matrix expected. */
interface Row {
  caller: Caller;
  status: number;
  expected: number;
  body: unknown;
}

async function send(route: { method: string }, entry: MatrixEntry, t: Team, caller: Person | undefined, token: string | undefined): Promise<Answer> {
  const request = await entry.build(t, caller);
  const headers = Object.fromEntries(Object.entries(request.headers ?? {}).filter((pair): pair is [string, string] => pair[1] !== undefined));
  return call(route.method, request.path, { token, body: request.body ?? (route.method === 'GET' ? undefined : {}), headers });
}

async function rowsOf(route: { method: string; path: string; tokenScope?: string }, entry: MatrixEntry): Promise<Row[]> {
  const rows: Row[] = [];
  const t = entry.ownTeam ? await matrixTeam(true) : team;
  const record = (caller: Caller, answer: Answer, want = expected(entry, caller)) =>
    rows.push({ caller, status: answer.status, expected: want, body: answer.body });

  if (entry.access === 'public') {
    record('no token', await send(route, entry, t, undefined, undefined), entry.ok);
    // An API token opens no public route (sign-in, sign-up...): refused before anything is read.
    record('api token with every scope', await send(route, entry, t, undefined, (await newApiToken(t, [...apiTokenScopes])).secret), 403);
    return rows;
  }
  if (entry.access === 'webhook') {
    // Without a signature, and with a forged one.
    record('no token', await send(route, entry, t, undefined, undefined), entry.ok);
    record('malformed token', await send(route, entry, t, t.member, undefined), entry.ok);
    return rows;
  }
  const anonymousTokens: [Caller, string | undefined][] = [
    ['no token', undefined],
    ['malformed token', 'not.a.jwt'],
    ['expired token', expiredToken],
    ['revoked token', revokedToken],
  ];
  const answers = await Promise.all(anonymousTokens.map(([, token]) => send(route, entry, withoutSpares(t), undefined, token)));
  for (const [i, [caller]] of anonymousTokens.entries()) record(caller, answers[i]!);

  // API tokens (ADR-0232), made by the owner: one with every scope acts as the owner on a
  // route with a token scope and is refused (403) on every other; one with every scope but the
  // route's is refused; a revoked one is unknown (401). A token of its own per route, so the
  // per-token rate limit never answers for the matrix's pace.
  record('revoked api token', await send(route, entry, withoutSpares(t), undefined, revokedApiToken), 401);
  const scope = route.tokenScope;
  const everyScope = await newApiToken(t, [...apiTokenScopes]);
  record('api token with every scope', await send(route, entry, t, t.owner, everyScope.secret), scope ? expected(entry, 'owner') : 403);
  if (scope) {
    const lacking = await newApiToken(
      t,
      apiTokenScopes.filter((s) => s !== scope),
    );
    record("api token without the route's scope", await send(route, entry, t, t.owner, lacking.secret), 403);
  }

  for (const caller of ['member', 'admin', 'owner'] as const) {
    const person = t[caller];
    const token = entry.revokesToken ? await freshToken(t, person) : person.token;
    record(caller, await send(route, entry, t, person, token));
  }

  // The strangers send the request built from the victim's ids.
  const strangerToken = entry.revokesToken ? await freshToken({ accountId: stranger.accountId } as Team, stranger) : stranger.token;
  const twinToken = entry.revokesToken ? await signIn(twin.email, twin.password, twin.accountId) : twin.token;
  for (const [caller, person, token] of [
    ['owner of another account', stranger, strangerToken],
    ["another account's user with the victim owner's e-mail", twin, twinToken],
  ] as const) {
    const answer = await send(route, entry, victim, person, token);
    record(caller, answer);
    const leaked = victim.ids().filter((id) => JSON.stringify(answer.body ?? '').includes(id));
    if (leaked.length) rows.push({ caller, status: -1, expected: 0, body: { leaked } });
  }
  return rows;
}

// Rows of one route run in order; routes run side by side (Vitest's maxConcurrency, 5). Rows that
// delete take their targets from `spare*`, and deleting the account runs on a team of its own.
describe.concurrent('route matrix: every route × every caller', () => {
  for (const route of httpRoutes) {
    const key = keyOf(route);
    it(key, async () => {
      const entry = routeAccess[key];
      if (!entry) return; // reported by the table test
      const rows = await rowsOf(route, entry);
      const wrong = rows.filter((row) => row.status !== row.expected || row.status === 500 || row.status < 0);
      expect(wrong, `${key} (${entry.access})`).toEqual([]);
    });
  }
});

describe('route matrix: the victim account', () => {
  it('reads the same after every stranger row, and its owner is still signed in', async () => {
    expect(await snapshot(victim)).toEqual(before);
    expect((await call('GET', '/auth/me', { token: victim.owner.token })).status).toBe(200);
    expect((await call('GET', '/auth/me', { token: victim.member.token })).status).toBe(200);
    // The stranger's body ids did not move anything into the victim account either.
    const users = await call('GET', `/users?query=${encodeURIComponent(JSON.stringify({ perPage: 100 }))}`, { token: victim.owner.token });
    expect(users.body.data.every((u: any) => u.accountId === victim.accountId)).toBe(true);
  });
});
