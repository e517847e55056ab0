/**
 * The read batch (`POST /api/batch`, docs/api.md#read-batch) over HTTP against the local runtime:
 * the inbox's first-paint reads answered in one request exactly as each answers alone; sub-requests
 * the batch refuses (not a GET, no route, another function's route, too many, malformed) with the
 * catalogue's 400 before any runs; one read's 404 or 400 beside the others' 200; no sub-request
 * reaching another account's data; an unauthenticated batch refused like any route.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { batchMethodText, batchRefusalTexts, batchSizeText, maxBatchRequests } from '#contracts/batch.ts';
import { errorTexts, errorTitles } from '#contracts/errors.ts';
import { type Answer, call, type Member, newOwner, setPlan } from './api.ts';

const listQuery = (query: unknown) => JSON.stringify(query);
/** The inbox's first paint, as the web app asks for it (web/src/features/inbox): list, counts, catalogues, the session. */
const firstPaint = [
  { path: '/contacts', query: { query: listQuery({ perPage: 50, where: { status: 'open' } }) } },
  { path: '/inbox/counts', query: { query: listQuery({ where: {} }) } },
  { path: '/tags' },
  { path: '/departments' },
  { path: '/services' },
  { path: '/auth/me' },
];
const pathOf = (r: { path: string; query?: Record<string, string> }) => (r.query ? `${r.path}?${new URLSearchParams(r.query)}` : r.path);
const badRequest = (details: { path: string; message: string }[]) => ({
  status: 400,
  body: { statusCode: 400, error: errorTitles.badRequest, message: errorTexts.invalidParams, details },
});

let owner: Member;
let other: Member;
let otherTagId: string;
let otherDepartmentId: string;

beforeAll(async () => {
  [owner, other] = await Promise.all([newOwner('Lote Um'), newOwner('Lote Dois')]);
  await Promise.all([owner, other].map((m) => setPlan(m.accountId, { productName: 'Pro', users: 10, connections: 5, contacts: 1000 })));
  for (const m of [owner, other]) {
    expect((await call('POST', '/tags', { token: m.token, body: { name: `Etiqueta ${m.accountId.slice(-6)}`, color: '#047857' } })).status).toBe(201);
  }
  otherTagId = (await call('GET', '/tags', { token: other.token })).body.data?.[0]?.id ?? (await call('GET', '/tags', { token: other.token })).body[0]?.id;
  const department = await call('POST', '/departments', { token: other.token, body: { name: 'Financeiro', userIds: [] } });
  expect(department.status).toBe(201);
  otherDepartmentId = department.body.id;
  expect(otherTagId).toBeTruthy();
});

describe('POST /batch', () => {
  it("answers the first paint's reads in order, each exactly as it answers alone", async () => {
    const batch = await call('POST', '/batch', { token: owner.token, body: { requests: firstPaint } });
    expect(batch.status).toBe(200);
    const alone = await Promise.all(firstPaint.map((r) => call('GET', pathOf(r), { token: owner.token })));
    expect(alone.map((a) => a.status)).toEqual(firstPaint.map(() => 200));
    expect(batch.body).toEqual({ responses: alone.map((a) => ({ status: a.status, body: a.body })) });
  });

  it("answers one read's 404 and another's 400 beside the others' 200, as each alone", async () => {
    const requests = [
      { path: '/tags' },
      { path: '/contacts/01JZZZZZZZZZZZZZZZZZZZZZZZ' },
      { path: '/contacts', query: { query: '{not json' } },
      { path: '/departments', method: 'GET' },
    ];
    const batch = await call('POST', '/batch', { token: owner.token, body: { requests } });
    expect(batch.status).toBe(200);
    const alone: Answer[] = await Promise.all(requests.map((r) => call('GET', pathOf(r), { token: owner.token })));
    expect(alone.map((a) => a.status)).toEqual([200, 404, 400, 200]);
    expect(batch.body.responses).toEqual(alone.map((a) => ({ status: a.status, body: a.body })));
  });

  it("answers each read with the route's own gate: a member's admin-only read is its 403", async () => {
    // GET /accounts/{id}/exports/{exportId} is admin-only; the account's member list is readable by members.
    const email = `membro.lote.${Date.now()}@example.com`;
    const made = await call('POST', '/users', { token: owner.token, body: { name: 'Membro', email, password: 'Senha#Forte123', isAdmin: false } });
    expect(made.status).toBe(201);
    const login = await call('POST', '/auth/login', { body: { email, password: 'Senha#Forte123', accountId: owner.accountId } });
    const requests = [{ path: `/accounts/${owner.accountId}/exports/01JZZZZZZZZZZZZZZZZZZZZZZZ` }, { path: '/tags' }];
    const batch = await call('POST', '/batch', { token: login.body.accessToken, body: { requests } });
    const alone = await Promise.all(requests.map((r) => call('GET', r.path, { token: login.body.accessToken })));
    expect(alone.map((a) => a.status)).toEqual([403, 200]);
    expect(batch.body.responses).toEqual(alone.map((a) => ({ status: a.status, body: a.body })));
  });

  it("never reaches another account's data: its ids answer 404, its lists are the caller's own", async () => {
    const requests = [
      { path: `/accounts/${other.accountId}` },
      { path: `/departments/${otherDepartmentId}` },
      { path: '/tags' },
      { path: `/accounts/${owner.accountId}` },
    ];
    const batch = await call('POST', '/batch', { token: owner.token, body: { requests } });
    expect(batch.status).toBe(200);
    const [account, department, tags, own] = batch.body.responses;
    expect(account).toEqual({ status: 404, body: { statusCode: 404, error: errorTitles.notFound, message: errorTexts.notFound } });
    expect(department).toEqual(account);
    expect(tags.status).toBe(200);
    expect(own).toMatchObject({ status: 200, body: { id: owner.accountId } });
    const text = JSON.stringify(batch.body);
    for (const id of [other.accountId, otherDepartmentId, otherTagId]) expect(text).not.toContain(id);
  });

  it('refuses a batch without a valid session with 401, like any route', async () => {
    for (const token of [undefined, 'not.a.jwt']) {
      const answer = await call('POST', '/batch', { token, body: { requests: [{ path: '/health' }] } });
      expect(answer).toEqual({ status: 401, body: { statusCode: 401, error: errorTitles.unauthorized, message: errorTexts.unauthorized } });
    }
    // Malformed and unauthenticated: the session's answer first, as every route.
    expect((await call('POST', '/batch', { raw: '{', headers: { 'content-type': 'application/json' } })).status).toBe(401);
  });

  it('refuses, before any runs, a read that is not a GET, has no route, is served by another function, or nests a batch', async () => {
    const tagsBefore = (await call('GET', '/tags', { token: owner.token })).body;
    const cases: [unknown, { path: string; message: string }[]][] = [
      [{ path: '/tags', method: 'POST' }, [{ path: 'requests.0.method', message: batchMethodText }]],
      [{ path: '/nothing/here' }, [{ path: 'requests.0.path', message: batchRefusalTexts.notARoute }]],
      [{ path: '/payments/checkout-session', query: { sessionId: 'cs_x' } }, [{ path: 'requests.0.path', message: batchRefusalTexts.otherFunction }]],
      [{ path: '/batch' }, [{ path: 'requests.0.path', message: batchRefusalTexts.notARoute }]],
      [{ path: '/messages/send' }, [{ path: 'requests.0.path', message: batchRefusalTexts.notARoute }]],
    ];
    for (const [bad, details] of cases) {
      const answer = await call('POST', '/batch', { token: owner.token, body: { requests: [{ path: '/tags' }, bad].reverse() } });
      expect(answer, JSON.stringify(bad)).toEqual(badRequest(details));
    }
    // Two refusals: both named.
    const two = await call('POST', '/batch', {
      token: owner.token,
      body: { requests: [{ path: '/tags' }, { path: '/x' }, { path: '/payments/checkout-session' }] },
    });
    expect(two).toEqual(
      badRequest([
        { path: 'requests.1.path', message: batchRefusalTexts.notARoute },
        { path: 'requests.2.path', message: batchRefusalTexts.otherFunction },
      ]),
    );
    expect((await call('GET', '/tags', { token: owner.token })).body).toEqual(tagsBefore);
  });

  it(`refuses more than ${maxBatchRequests} reads, none, and malformed bodies`, async () => {
    const many = Array.from({ length: maxBatchRequests + 1 }, () => ({ path: '/tags' }));
    expect(await call('POST', '/batch', { token: owner.token, body: { requests: many } })).toEqual(badRequest([{ path: 'requests', message: batchSizeText }]));
    expect(await call('POST', '/batch', { token: owner.token, body: { requests: [] } })).toEqual(badRequest([{ path: 'requests', message: batchSizeText }]));
    const exactly = await call('POST', '/batch', { token: owner.token, body: { requests: many.slice(1) } });
    expect(exactly.status).toBe(200);
    expect(exactly.body.responses).toHaveLength(maxBatchRequests);

    for (const body of [
      {},
      { requests: 'x' },
      { requests: [{ path: 'tags' }] },
      { requests: [{ path: '/tags?x=1' }] },
      { requests: [{ path: '/tags', query: { a: 1 } }] },
      { requests: [{ path: '/tags', extra: 1 }] },
    ]) {
      const answer = await call('POST', '/batch', { token: owner.token, body });
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body, JSON.stringify(body)).toMatchObject({ statusCode: 400, error: errorTitles.badRequest, message: errorTexts.invalidParams });
      expect(answer.body.details.length, JSON.stringify(body)).toBeGreaterThan(0);
    }
    const broken = await call('POST', '/batch', { token: owner.token, raw: '{"requests": [' });
    expect(broken.status).toBe(400);
    expect(broken.body).toMatchObject({ statusCode: 400, error: errorTitles.badRequest });
  });
});
