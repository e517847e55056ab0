/**
 * API tokens through the shared local runtime (ADR-0232): an admin's token works as a
 * bearer on the app's own routes where its scopes allow and nowhere else (sign-in, realtime
 * tickets, the token routes themselves), its calls are audited with the status they got and its
 * last use is listed, the per-token limit answers 429 with Retry-After, and a revoked token stops
 * at its next call. A creator demoted from admin takes the token down with them.
 */
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { errorTexts } from '#contracts/errors.ts';
import { call, proTeam, strongPassword } from './api.ts';

type Team = Awaited<ReturnType<typeof proTeam>>;
let team: Team;

beforeAll(async () => {
  team = await proTeam();
});

async function newToken(token: string, scopes: string[]) {
  const made = await call('POST', '/api-tokens', { token, body: { name: 'n8n', scopes } });
  expect(made.status).toBe(201);
  return made.body as { token: { id: string; hint: string }; secret: string };
}

describe('an API token over HTTP', () => {
  it('calls the routes its scopes allow, is refused elsewhere, and every call is audited', async () => {
    const { token, secret } = await newToken(team.admin.token, ['contacts:read']);
    expect(secret).toMatch(/^cvk_/);

    expect((await call('GET', '/contacts', { token: secret })).status).toBe(200);
    const write = await call('POST', '/contacts', { token: secret, body: { name: 'Cliente', number: '5511987650000' } });
    expect([write.status, write.body.message]).toEqual([403, errorTexts.apiTokenScopeMissing]);
    for (const [method, path] of [
      ['GET', '/users'],
      ['POST', '/ws-ticket'],
      ['GET', '/api-tokens'],
      ['GET', '/auth/me'],
    ] as const) {
      const refused = await call(method, path, { token: secret });
      expect([method, path, refused.status, refused.body.message]).toEqual([method, path, 403, errorTexts.apiTokenRouteRefused]);
    }
    const signIn = await call('POST', '/auth/login', { token: secret, body: { email: team.admin.email, password: strongPassword } });
    expect([signIn.status, signIn.body.message]).toEqual([403, errorTexts.apiTokenRouteRefused]);

    const listed = await call('GET', '/api-tokens', { token: team.owner.token });
    const mine = listed.body.find((t: { id: string }) => t.id === token.id);
    expect(mine.lastUsedAt).not.toBeNull();
    expect(mine.createdBy.id).toBe(team.admin.id);
    expect(JSON.stringify(listed.body)).not.toContain(secret);

    const calls = await call('GET', `/api-tokens/${token.id}/calls`, { token: team.owner.token });
    expect(calls.status).toBe(200);
    // Sign-in is public: the token was refused before it was looked up, so that call has no token to be recorded under.
    expect(calls.body.map((c: { method: string; route: string; status: number }) => `${c.status} ${c.method} ${c.route}`).reverse()).toEqual([
      '200 GET /contacts',
      '403 POST /contacts',
      '403 GET /users',
      '403 POST /ws-ticket',
      '403 GET /api-tokens',
      '403 GET /auth/me',
    ]);
    expect(calls.body[0].address).toMatch(/\d/);
  });

  it('stops at its next call once revoked', async () => {
    const { token, secret } = await newToken(team.owner.token, ['contacts:read', 'messages:read']);
    expect((await call('GET', '/contacts', { token: secret })).status).toBe(200);
    const revoked = await call('DELETE', `/api-tokens/${token.id}`, { token: team.admin.token });
    expect(revoked.status).toBe(200);
    expect(revoked.body.revokedBy.id).toBe(team.admin.id);
    expect((await call('GET', '/contacts', { token: secret })).status).toBe(401);
    expect((await call('DELETE', `/api-tokens/${token.id}`, { token: team.admin.token })).status).toBe(409);
  });

  it('stops when its creator is no longer an admin', async () => {
    const { secret } = await newToken(team.admin.token, ['contacts:read']);
    expect((await call('GET', '/contacts', { token: secret })).status).toBe(200);
    const demoted = await call('PUT', `/users/${team.admin.id}`, { token: team.owner.token, body: { name: 'Admin', email: team.admin.email, isAdmin: false } });
    expect(demoted.status).toBe(200);
    expect((await call('GET', '/contacts', { token: secret })).status).toBe(401);
  });

  it('answers 429 with Retry-After past 120 calls a minute', async () => {
    const { secret } = await newToken(team.owner.token, ['contacts:read']);
    const send = () => fetch(`${inject('baseUrl')}/api/users`, { headers: { authorization: `Bearer ${secret}` } });
    for (let i = 0; i < 120; i++) expect((await send()).status).toBe(403);
    const limited = await send();
    expect(limited.status).toBe(429);
    expect((await limited.json()).message).toBe(errorTexts.apiTokenRateLimited);
    const wait = Number(limited.headers.get('retry-after'));
    expect(wait).toBeGreaterThanOrEqual(1);
    expect(wait).toBeLessThanOrEqual(60);
  });
});
