/**
 * Creating, listing and revoking an account's API tokens (ADR-0232). Admins act, through
 * routes no API token can call. The secret (`cvk_` and 32 random bytes, base64url) is answered once,
 * when created; the table keeps only its SHA-256 and its last 4 characters.
 */
import { randomBytes } from 'node:crypto';
import type { z } from 'zod';
import { type ApiToken, type ApiTokenCall, type ApiTokenCreated, type apiTokenPayload, apiTokenPrefix } from '#contracts/api-tokens.ts';
import { errorTexts } from '#contracts/errors.ts';
import { type ApiTokenItem, apiTokenCallsOf, apiTokenDigest, apiTokensOf, getApiToken, putApiToken, revokeApiTokenItem } from '#db/api-tokens.ts';
import { fail } from '../errors.ts';
import type { Ports } from '../ports.ts';
import type { AccountSession } from '../session.ts';

/** How many of a token's latest calls its screen shows. */
const shownCalls = 20;

function presentApiToken(item: ApiTokenItem): ApiToken {
  return {
    id: item.id,
    name: item.name,
    scopes: item.scopes,
    hint: `${apiTokenPrefix}…${item.last4}`,
    createdBy: item.createdBy,
    createdAt: item.createdAt,
    expiresAt: item.expiresAt,
    lastUsedAt: item.lastUsedAt,
    revokedAt: item.revokedAt,
    revokedBy: item.revokedBy,
  };
}

export async function createApiToken(ports: Ports, session: AccountSession, payload: z.output<typeof apiTokenPayload>): Promise<ApiTokenCreated> {
  const now = ports.clock();
  const secret = `${apiTokenPrefix}${randomBytes(32).toString('base64url')}`;
  const item = await putApiToken(ports.table, {
    accountId: session.accountId,
    id: ports.newId(now.getTime()),
    name: payload.name,
    scopes: payload.scopes,
    last4: secret.slice(-4),
    digest: apiTokenDigest(secret),
    createdBy: { id: session.user.id, name: session.user.name },
    createdAt: now.toISOString(),
    expiresAt: payload.expiresInDays === null ? null : new Date(now.getTime() + payload.expiresInDays * 24 * 3600 * 1000).toISOString(),
    lastUsedAt: null,
    revokedAt: null,
    revokedBy: null,
  });
  return { token: presentApiToken(item), secret };
}

export async function listApiTokens(ports: Ports, session: AccountSession): Promise<ApiToken[]> {
  return (await apiTokensOf(ports.table, session.accountId)).map(presentApiToken);
}

/** Effective on the token's next call: its lookup item is gone. Revoking twice answers 409. */
export async function revokeApiToken(ports: Ports, session: AccountSession, tokenId: string): Promise<ApiToken> {
  const item = await getApiToken(ports.table, session.accountId, tokenId);
  if (!item) throw fail.notFound();
  if (item.revokedAt) throw fail.conflict(errorTexts.apiTokenRevoked);
  const by = { id: session.user.id, name: session.user.name };
  const revokedAt = ports.clock().toISOString();
  if (!(await revokeApiTokenItem(ports.table, item, by, revokedAt))) throw fail.conflict(errorTexts.apiTokenRevoked);
  return presentApiToken({ ...item, revokedAt, revokedBy: by });
}

/** A token's latest audited calls, newest first. */
export async function listApiTokenCalls(ports: Ports, session: AccountSession, tokenId: string): Promise<ApiTokenCall[]> {
  if (!(await getApiToken(ports.table, session.accountId, tokenId))) throw fail.notFound();
  const calls = await apiTokenCallsOf(ports.table, session.accountId, tokenId, shownCalls);
  return calls.map(({ at, method, route, status, address }) => ({ at, method, route, status, address }));
}
