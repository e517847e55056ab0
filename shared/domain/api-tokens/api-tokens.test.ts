/**
 * API tokens against dynalite behind the local DynamoDB front (ADR-0232): the secret is
 * shown once and stored only as its SHA-256; a bearer resolves to its creator within its scopes;
 * revocation, expiry and a creator archived, demoted or gone end it; last use is written at most
 * once a minute; the per-token rate limit answers the seconds until there is room; calls are audited.
 * The clock is the test's own.
 */
import { ScanCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ulid } from 'ulid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LocalTable, startLocalTable } from '../../../tests/support/local-table.ts';
import { apiTokenPayload, type ApiTokenScope } from '#contracts/api-tokens.ts';
import { errorTexts } from '#contracts/errors.ts';
import { apiTokenDigest, getApiToken } from '#db/api-tokens.ts';
import type { Table } from '#db/client.ts';
import { entityTypes, keys } from '#db/keys.ts';
import type { UserItem } from '#db/users.ts';
import { DomainError } from '../errors.ts';
import type { Ports } from '../ports.ts';
import type { AccountSession } from '../session.ts';
import { createApiToken, listApiTokenCalls, listApiTokens, revokeApiToken } from './api-token-actions.ts';
import { admitApiTokenCall, apiTokenLimit, auditApiTokenCall } from './api-token-calls.ts';
import { apiTokenSession } from './api-token-session.ts';

let local: LocalTable;
let table: Table;
const clock = { now: Date.parse('2026-11-28T12:00:00.000Z') };
let ports: Ports;

beforeAll(async () => {
  local = await startLocalTable('api-tokens-test');
  table = local.ports.table;
  ports = { table, clock: () => new Date(clock.now), newId: (at?: number) => ulid(at) } as unknown as Ports;
});

afterAll(async () => {
  await local.close();
});

/** An account with an admin (the token's creator), written as the users module writes them. */
async function adminOf(): Promise<AccountSession> {
  const accountId = ulid();
  const id = ulid();
  const user = {
    ...keys.user(accountId, id),
    type: entityTypes.user,
    id,
    name: 'Ana Admin',
    email: `${id.toLowerCase()}@example.com`,
    accountId,
    isAdmin: true,
    isOwner: false,
    archivedAt: null,
  } as unknown as UserItem;
  await table.doc.send(new PutCommand({ TableName: table.name, Item: user }));
  return { accountId, user, claims: { sub: id, acc: accountId, jti: ulid(), exp: 0, gen: 0 } };
}

const payload = (scopes: ApiTokenScope[], expiresInDays: number | null = null) => apiTokenPayload.parse({ name: 'n8n', scopes, expiresInDays });

async function refusal(promise: Promise<unknown>): Promise<DomainError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DomainError);
  return error as DomainError;
}

describe('the create payload', () => {
  it('wants a name and at least one known scope, and keeps the scopes in their catalogue order without repeats', () => {
    expect(apiTokenPayload.parse({ name: ' n8n ', scopes: ['messages:send', 'contacts:read', 'messages:send'] })).toEqual({
      name: 'n8n',
      scopes: ['contacts:read', 'messages:send'],
      expiresInDays: null,
    });
    expect(apiTokenPayload.safeParse({ name: 'n8n', scopes: [] }).error?.issues[0]?.message).toBe('Escolha pelo menos uma permissão');
    expect(apiTokenPayload.safeParse({ name: 'n8n', scopes: ['admin'] }).success).toBe(false);
    expect(apiTokenPayload.safeParse({ name: '', scopes: ['contacts:read'] }).error?.issues[0]?.message).toBe('Campo obrigatório');
    expect(apiTokenPayload.safeParse({ name: 'n8n', scopes: ['contacts:read'], expiresInDays: 7 }).error?.issues[0]?.message).toBe(
      'Escolha 30, 90 ou 365 dias, ou sem validade',
    );
  });
});

describe('a token', () => {
  it('is shown once, stored only as its SHA-256, and listed with its prefix and last 4 characters', async () => {
    const admin = await adminOf();
    const { token, secret } = await createApiToken(ports, admin, payload(['contacts:read']));
    expect(secret).toMatch(/^cvk_[A-Za-z0-9_-]{43}$/);
    expect(token.hint).toBe(`cvk_…${secret.slice(-4)}`);
    expect(token.createdBy).toEqual({ id: admin.user.id, name: 'Ana Admin' });
    const { Items = [] } = await table.doc.send(new ScanCommand({ TableName: table.name }));
    expect(JSON.stringify(Items)).not.toContain(secret);
    expect(JSON.stringify(Items)).not.toContain(secret.slice(4));
    expect(Items.some((i) => i.pk === keys.apiTokenLookup(apiTokenDigest(secret)).pk)).toBe(true);
    const listed = await listApiTokens(ports, admin);
    expect(listed).toEqual([token]);
    expect(JSON.stringify(listed)).not.toContain(secret);
  });

  it('acts as its creator within its scopes, and records its last use at most once a minute', async () => {
    const admin = await adminOf();
    const { token, secret } = await createApiToken(ports, admin, payload(['contacts:read', 'messages:send']));
    const session = await apiTokenSession(ports, secret);
    expect(session.user.id).toBe(admin.user.id);
    expect(session.accountId).toBe(admin.accountId);
    expect(session.apiToken).toEqual({ id: token.id, scopes: ['contacts:read', 'messages:send'] });
    const firstUse = new Date(clock.now).toISOString();
    expect((await getApiToken(table, admin.accountId, token.id))?.lastUsedAt).toBe(firstUse);
    clock.now += 30_000;
    await apiTokenSession(ports, secret);
    expect((await getApiToken(table, admin.accountId, token.id))?.lastUsedAt).toBe(firstUse);
    clock.now += 31_000;
    await apiTokenSession(ports, secret);
    expect((await getApiToken(table, admin.accountId, token.id))?.lastUsedAt).toBe(new Date(clock.now).toISOString());
  });

  it('is refused for an unknown secret', async () => {
    expect((await refusal(apiTokenSession(ports, `cvk_${'A'.repeat(43)}`))).kind).toBe('unauthorized');
  });

  it('stops at its next call once revoked; revoking it again is a conflict', async () => {
    const admin = await adminOf();
    const { token, secret } = await createApiToken(ports, admin, payload(['contacts:read']));
    await apiTokenSession(ports, secret);
    const revoked = await revokeApiToken(ports, admin, token.id);
    expect(revoked.revokedAt).toBe(new Date(clock.now).toISOString());
    expect(revoked.revokedBy).toEqual({ id: admin.user.id, name: 'Ana Admin' });
    expect((await refusal(apiTokenSession(ports, secret))).kind).toBe('unauthorized');
    const again = await refusal(revokeApiToken(ports, admin, token.id));
    expect([again.kind, again.text]).toEqual(['conflict', errorTexts.apiTokenRevoked]);
    expect((await listApiTokens(ports, admin))[0]?.revokedAt).toBe(revoked.revokedAt);
    expect((await refusal(revokeApiToken(ports, await adminOf(), token.id))).kind).toBe('notFound');
  });

  it('stops once expired', async () => {
    const admin = await adminOf();
    const { token, secret } = await createApiToken(ports, admin, payload(['contacts:read'], 30));
    expect(token.expiresAt).toBe(new Date(clock.now + 30 * 24 * 3600 * 1000).toISOString());
    clock.now += 30 * 24 * 3600 * 1000 - 1000;
    await apiTokenSession(ports, secret);
    clock.now += 1000;
    expect((await refusal(apiTokenSession(ports, secret))).kind).toBe('unauthorized');
  });

  it('stops when its creator is archived, no longer an admin, or deleted', async () => {
    for (const change of ['SET archivedAt = :v', 'SET isAdmin = :f', 'delete'] as const) {
      const admin = await adminOf();
      const { secret } = await createApiToken(ports, admin, payload(['contacts:read']));
      await apiTokenSession(ports, secret);
      const Key = keys.user(admin.accountId, admin.user.id);
      if (change === 'delete') {
        await table.doc.send(new PutCommand({ TableName: table.name, Item: { ...Key, type: 'Gone' } }));
      } else {
        const values = change.includes(':v') ? { ':v': new Date(clock.now).toISOString() } : { ':f': false };
        await table.doc.send(new UpdateCommand({ TableName: table.name, Key, UpdateExpression: change, ExpressionAttributeValues: values }));
      }
      expect((await refusal(apiTokenSession(ports, secret))).kind, change).toBe('unauthorized');
    }
  });
});

describe('a call with a token', () => {
  it("is refused on a route without a token scope, or whose scope the token lacks, with the catalogue's texts", async () => {
    const token = { id: ulid(), scopes: ['contacts:read'] as ApiTokenScope[] };
    await admitApiTokenCall(ports, token, 'contacts:read');
    const lacking = await refusal(admitApiTokenCall(ports, token, 'contacts:write'));
    expect([lacking.kind, lacking.text]).toEqual(['forbidden', errorTexts.apiTokenScopeMissing]);
    const unscoped = await refusal(admitApiTokenCall(ports, token, undefined));
    expect([unscoped.kind, unscoped.text]).toEqual(['forbidden', errorTexts.apiTokenRouteRefused]);
  });

  it('is limited per token: past the budget it answers 429 with the seconds until the oldest call leaves the window', async () => {
    const token = { id: ulid(), scopes: ['contacts:read'] as ApiTokenScope[] };
    const other = { id: ulid(), scopes: ['contacts:read'] as ApiTokenScope[] };
    const start = clock.now;
    for (let i = 0; i < apiTokenLimit.max; i++) {
      clock.now = start + i * 100;
      await admitApiTokenCall(ports, token, 'contacts:read');
    }
    clock.now = start + 20_000;
    const limited = await refusal(admitApiTokenCall(ports, token, 'contacts:read'));
    expect([limited.kind, limited.text, limited.retryAfterSeconds]).toEqual(['tooMany', errorTexts.apiTokenRateLimited, 40]);
    // Another token has its own budget.
    await admitApiTokenCall(ports, other, 'contacts:read');
    // Once the oldest call has left the window there is room for one more.
    clock.now = start + 60_000 + 1;
    await admitApiTokenCall(ports, token, 'contacts:read');
    await refusal(admitApiTokenCall(ports, token, 'contacts:read'));
  });

  it('is audited, and the token lists its latest calls newest first', async () => {
    const admin = await adminOf();
    const { token } = await createApiToken(ports, admin, payload(['contacts:read']));
    await auditApiTokenCall(ports, admin.accountId, { tokenId: token.id, method: 'GET', route: '/contacts', status: 200, address: '203.0.113.7' });
    clock.now += 1000;
    await auditApiTokenCall(ports, admin.accountId, { tokenId: token.id, method: 'POST', route: '/contacts', status: 403, address: '203.0.113.7' });
    const calls = await listApiTokenCalls(ports, admin, token.id);
    expect(calls.map((c) => [c.method, c.route, c.status, c.address])).toEqual([
      ['POST', '/contacts', 403, '203.0.113.7'],
      ['GET', '/contacts', 200, '203.0.113.7'],
    ]);
    expect(calls[0]!.at).toBe(new Date(clock.now).toISOString());
    const { Items = [] } = await table.doc.send(
      new ScanCommand({
        TableName: table.name,
        FilterExpression: '#t = :t',
        ExpressionAttributeNames: { '#t': 'type' },
        ExpressionAttributeValues: { ':t': entityTypes.apiTokenCall },
      }),
    );
    const mine = Items.filter((i) => i.tokenId === token.id);
    expect(mine.every((i) => i.ttl === Math.ceil(Date.parse(i.at) / 1000) + 90 * 24 * 3600)).toBe(true);
    expect((await refusal(listApiTokenCalls(ports, await adminOf(), token.id))).kind).toBe('notFound');
  });
});
