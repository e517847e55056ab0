/** Realtime connections, recorded under their account with a TTL (API Gateway caps a connection at 2 hours). */
import { DeleteCommand, GetCommand } from '@aws-sdk/lib-dynamodb';
import type { Table } from './client.ts';
import { entityTypes, keys } from './keys.ts';
import { putStep, writeTogether } from './transaction.ts';
import { queryAll } from './users.ts';

export const connectionLifetimeSeconds = 2 * 60 * 60 + 60;

export interface ConnectionItem {
  connectionId: string;
  accountId: string;
  userId: string;
  /**
   * The user's role when the socket opened: what the fan-out's visibility rule needs
   * (shared/domain/realtime/audience.ts). Absent on records written before it existed: such a
   * socket is treated as a member's.
   */
  isAdmin?: boolean;
  connectedAt: string;
  /** The session the connection was opened with: its token's id, generation and expiry (epoch seconds). */
  jti?: string;
  generation?: number;
  tokenExpiresAt?: number;
}

export async function recordConnection(table: Table, c: ConnectionItem, nowSeconds: number): Promise<void> {
  const ttl = nowSeconds + connectionLifetimeSeconds;
  await writeTogether(table, {
    inAccount: putStep({ ...keys.accountConnection(c.accountId, c.connectionId), type: entityTypes.wsConnection, ttl, ...c }),
    byId: putStep({ ...keys.connection(c.connectionId), type: entityTypes.wsConnection, ttl, ...c }),
  });
}

export async function forgetConnection(table: Table, connectionId: string): Promise<void> {
  const { Item } = await table.doc.send(new GetCommand({ TableName: table.name, Key: keys.connection(connectionId) }));
  if (Item) await table.doc.send(new DeleteCommand({ TableName: table.name, Key: keys.accountConnection(Item.accountId as string, connectionId) }));
  await table.doc.send(new DeleteCommand({ TableName: table.name, Key: keys.connection(connectionId) }));
}

/** The connections of an account (those past the gateway's 2-hour cap are left out even before TTL removes them). */
export async function accountConnections(table: Table, accountId: string, nowSeconds: number): Promise<ConnectionItem[]> {
  const { pk, skPrefix } = keys.accountConnections(accountId);
  const items = await queryAll<ConnectionItem & { ttl: number }>(table, {
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)',
    ExpressionAttributeValues: { ':pk': pk, ':p': skPrefix },
  });
  return items.filter((i) => i.ttl > nowSeconds);
}
