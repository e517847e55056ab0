/**
 * API tokens as items (ADR-0232): the token in its account's partition (what the
 * 'Tokens de API' screen lists), a lookup item keyed by the SHA-256 of the secret (what a caller's
 * bearer finds; the table never holds a usable secret), and the audited calls in a partition of the
 * token's own, each kept `callRetentionDays`. Revoking removes the lookup item, so the next call
 * finds nothing; the token item stays, marked, as long as its calls.
 */
import { createHash } from 'node:crypto';
import { GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { ApiTokenScope } from '#contracts/api-tokens.ts';
import { getItems, isAt } from './batch-get.ts';
import type { Table } from './client.ts';
import { unlessConditionFails } from './conditions.ts';
import { entityTypes, keys } from './keys.ts';
import { refusedBy, writeTogether } from './transaction.ts';
import { queryAll, type UserItem } from './users.ts';

/** How long a call stays in a token's audit (and a revoked token on the list). */
export const callRetentionDays = 90;
const retentionSeconds = callRetentionDays * 24 * 3600;

export interface ApiTokenItem {
  pk: string;
  sk: string;
  type: typeof entityTypes.apiToken;
  accountId: string;
  id: string;
  name: string;
  scopes: ApiTokenScope[];
  /** The secret's last 4 characters, shown after its prefix. */
  last4: string;
  /** The lookup item's key part (removed with it on revocation and purge). */
  digest: string;
  createdBy: { id: string; name: string };
  createdAt: string;
  expiresAt: string | null;
  /** Written at most once a minute (`touchApiToken`). */
  lastUsedAt: string | null;
  revokedAt: string | null;
  revokedBy: { id: string; name: string } | null;
  /** Set on revocation: the item leaves with the last of its calls. */
  ttl?: number;
}

/** What a bearer finds by its digest: enough to read the token and its creator in one batch. */
export interface ApiTokenLookupItem {
  accountId: string;
  tokenId: string;
  creatorId: string;
}

export interface ApiTokenCallItem {
  tokenId: string;
  at: string;
  method: string;
  route: string;
  status: number;
  address: string;
}

/** The key part of a secret: its SHA-256, base64url. */
export function apiTokenDigest(secret: string): string {
  return createHash('sha256').update(secret).digest('base64url');
}

/** Writes a new token and its lookup item together. */
export async function putApiToken(table: Table, token: Omit<ApiTokenItem, 'pk' | 'sk' | 'type'>): Promise<ApiTokenItem> {
  const item: ApiTokenItem = { ...keys.apiToken(token.accountId, token.id), type: entityTypes.apiToken, ...token };
  const lookup = {
    ...keys.apiTokenLookup(token.digest),
    type: entityTypes.apiTokenLookup,
    accountId: token.accountId,
    tokenId: token.id,
    creatorId: token.createdBy.id,
    // Expired lookups leave by TTL; the expiry is checked on every call anyway.
    ...(token.expiresAt ? { ttl: Math.ceil(Date.parse(token.expiresAt) / 1000) } : {}),
  };
  await writeTogether(table, {
    token: { Put: { Item: { ...item }, ConditionExpression: 'attribute_not_exists(pk)' } },
    // A random 256-bit secret never meets another; the condition makes sure.
    lookup: { Put: { Item: lookup, ConditionExpression: 'attribute_not_exists(pk)' } },
  });
  return item;
}

/** The account's tokens, newest first (ids are time-ordered ULIDs). */
export async function apiTokensOf(table: Table, accountId: string): Promise<ApiTokenItem[]> {
  const { pk, skPrefix } = keys.accountApiTokens(accountId);
  return queryAll<ApiTokenItem>(table, {
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :sk)',
    ExpressionAttributeValues: { ':pk': pk, ':sk': skPrefix },
    ScanIndexForward: false,
  });
}

export async function getApiToken(table: Table, accountId: string, tokenId: string): Promise<ApiTokenItem | undefined> {
  const { Item } = await table.doc.send(new GetCommand({ TableName: table.name, Key: keys.apiToken(accountId, tokenId), ConsistentRead: true }));
  return Item as ApiTokenItem | undefined;
}

/** The lookup item of a secret's digest, or undefined (unknown or revoked). */
export async function findApiTokenLookup(table: Table, digest: string): Promise<ApiTokenLookupItem | undefined> {
  const { Item } = await table.doc.send(new GetCommand({ TableName: table.name, Key: keys.apiTokenLookup(digest) }));
  return Item as ApiTokenLookupItem | undefined;
}

/**
 * The token and its creator, in one BatchGetItem (every call with a token pays this read); keys
 * the table could not serve at once are asked again until it has answered them all.
 */
export async function apiTokenSessionItems(
  table: Table,
  lookup: ApiTokenLookupItem,
): Promise<{ token: ApiTokenItem | undefined; creator: UserItem | undefined }> {
  const tokenKey = keys.apiToken(lookup.accountId, lookup.tokenId);
  const creatorKey = keys.user(lookup.accountId, lookup.creatorId);
  const found = await getItems(table, [tokenKey, creatorKey]);
  return { token: found.find(isAt(tokenKey)) as ApiTokenItem | undefined, creator: found.find(isAt(creatorKey)) as UserItem | undefined };
}

/**
 * Marks the token revoked and removes its lookup item, together: answers false when it was revoked
 * already (or is gone).
 */
export async function revokeApiTokenItem(table: Table, token: ApiTokenItem, by: { id: string; name: string }, nowIso: string): Promise<boolean> {
  try {
    await writeTogether(table, {
      token: {
        Update: {
          Key: keys.apiToken(token.accountId, token.id),
          UpdateExpression: 'SET revokedAt = :now, revokedBy = :by, #ttl = :ttl',
          ConditionExpression: 'attribute_exists(pk) AND revokedAt = :null',
          ExpressionAttributeNames: { '#ttl': 'ttl' },
          ExpressionAttributeValues: { ':now': nowIso, ':by': by, ':ttl': Math.ceil(Date.parse(nowIso) / 1000) + retentionSeconds, ':null': null },
        },
      },
      lookup: { Delete: { Key: keys.apiTokenLookup(token.digest) } },
    });
    return true;
  } catch (error) {
    if (refusedBy(error, 'token')) return false;
    throw error;
  }
}

/** Records a use, unless another call recorded one after `staleBefore` (at most one write a minute per token). */
export async function touchApiToken(table: Table, accountId: string, tokenId: string, nowIso: string, staleBefore: string): Promise<void> {
  await unlessConditionFails(
    table.doc.send(
      new UpdateCommand({
        TableName: table.name,
        Key: keys.apiToken(accountId, tokenId),
        UpdateExpression: 'SET lastUsedAt = :now',
        ConditionExpression: 'attribute_exists(pk) AND (lastUsedAt = :null OR lastUsedAt < :stale)',
        ExpressionAttributeValues: { ':now': nowIso, ':null': null, ':stale': staleBefore },
      }),
    ),
  );
}

/** One audited call, kept `callRetentionDays`. `callId` keeps two calls of one millisecond apart. */
export async function putApiTokenCall(table: Table, accountId: string, callId: string, call: ApiTokenCallItem): Promise<void> {
  await table.doc.send(
    new PutCommand({
      TableName: table.name,
      Item: {
        ...keys.apiTokenCall(accountId, call.tokenId, call.at, callId),
        type: entityTypes.apiTokenCall,
        ...call,
        ttl: Math.ceil(Date.parse(call.at) / 1000) + retentionSeconds,
      },
    }),
  );
}

/** A token's latest calls, newest first. */
export async function apiTokenCallsOf(table: Table, accountId: string, tokenId: string, limit: number): Promise<ApiTokenCallItem[]> {
  const { pk, skPrefix } = keys.apiTokenCalls(accountId, tokenId);
  const { Items } = await table.doc.send(
    new QueryCommand({
      TableName: table.name,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :sk)',
      ExpressionAttributeValues: { ':pk': pk, ':sk': skPrefix },
      ScanIndexForward: false,
      Limit: limit,
    }),
  );
  return (Items ?? []) as ApiTokenCallItem[];
}
