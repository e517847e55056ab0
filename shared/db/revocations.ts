/** Revoked access tokens, kept until the moment they would have expired anyway. */
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { Table } from './client.ts';
import { entityTypes, keys } from './keys.ts';

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

export async function isTokenRevoked(table: Table, jti: string): Promise<boolean> {
  const { Item } = await table.doc.send(new GetCommand({ TableName: table.name, Key: keys.revokedToken(jti) }));
  return Boolean(Item);
}
