/** Revoked access tokens, kept until the moment they would have expired anyway. */
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { Table } from './client.ts';
import { entityTypes, keys } from './keys.ts';

export async function revokeToken(table: Table, jti: string, expiresAt: number): Promise<void> {
  await table.doc.send(
    new PutCommand({ TableName: table.name, Item: { ...keys.revokedToken(jti), type: entityTypes.revokedToken, expiresAt, ttl: expiresAt } }),
  );
}

export async function isTokenRevoked(table: Table, jti: string): Promise<boolean> {
  const { Item } = await table.doc.send(new GetCommand({ TableName: table.name, Key: keys.revokedToken(jti) }));
  return Boolean(Item);
}
