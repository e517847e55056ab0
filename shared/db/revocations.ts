/** Revoked access tokens, kept until the moment they would have expired anyway. */
import { BatchGetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { Table } from './client.ts';
import { entityTypes, keys, type Key } from './keys.ts';
import type { UserItem } from './users.ts';

/** The token's account and user ride along, so the stream can close that session's realtime connections. */
export async function revokeToken(table: Table, token: { jti: string; expiresAt: number; accountId: string | null; userId: string }): Promise<void> {
  const { jti, expiresAt, accountId, userId } = token;
  await table.doc.send(
    new PutCommand({
      TableName: table.name,
      Item: { ...keys.revokedToken(jti), type: entityTypes.revokedToken, jti, accountId, userId, expiresAt, ttl: expiresAt },
    }),
  );
}

/**
 * What every authenticated request reads: whether its token is revoked, and its user. One
 * BatchGetItem for both (every request pays this read, so one round trip rather than two); keys
 * the table could not serve at once (throttling) are asked again until it has answered them all.
 */
export async function tokenSessionItems(
  table: Table,
  token: { jti: string; accountId: string | null; userId: string },
): Promise<{ revoked: boolean; user: UserItem | undefined }> {
  const revokedKey = keys.revokedToken(token.jti);
  const userKey = keys.user(token.accountId, token.userId);
  const found: Record<string, unknown>[] = [];
  let wanted: Key[] = [revokedKey, userKey];
  for (let attempt = 0; wanted.length; attempt++) {
    if (attempt) await new Promise((r) => setTimeout(r, Math.min(2 ** attempt * 10, 500)));
    const answer = await table.doc.send(new BatchGetCommand({ RequestItems: { [table.name]: { Keys: wanted } } }));
    found.push(...(answer.Responses?.[table.name] ?? []));
    wanted = (answer.UnprocessedKeys?.[table.name]?.Keys ?? []) as Key[];
  }
  const isAt = (key: Key) => (item: Record<string, unknown>) => item.pk === key.pk && item.sk === key.sk;
  return { revoked: found.some(isAt(revokedKey)), user: found.find(isAt(userKey)) as UserItem | undefined };
}
