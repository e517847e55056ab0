/** Revoked access tokens, kept until the moment they would have expired anyway. */
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { getItems, isAt } from './batch-get.ts';
import type { Table } from './client.ts';
import { entityTypes, keys } from './keys.ts';
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
  const found = await getItems(table, [revokedKey, userKey]);
  return { revoked: found.some(isAt(revokedKey)), user: found.find(isAt(userKey)) as UserItem | undefined };
}
