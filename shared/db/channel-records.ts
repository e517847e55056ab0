/**
 * The storage every channel adapter shares for what it keeps for itself: records per connection
 * (a Telegram poll offset; WhatsApp's auth state), records found by the connection id alone (a
 * Telegram webhook's secret), and exclusive claims (a Telegram bot serves one connection). The
 * adapter names the kind; `keys.ts` owns the key shapes. The data is the adapter's own business.
 */
import { DeleteCommand, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { Table } from './client.ts';
import { entityTypes, keys, type Key } from './keys.ts';
import type { TransactStep } from './transaction.ts';
import { queryAll } from './users.ts';

/** Where a channel record lives: under one connection, or found by the connection id alone. */
export type RecordAddress =
  | { scope: 'connection'; accountId: string; serviceId: string; channel: string; kind: string; id?: string }
  | { scope: 'global'; channel: string; kind: string; id: string };

function keyOf(address: RecordAddress): Key {
  return address.scope === 'connection'
    ? keys.connectionRecord(address.accountId, address.serviceId, address.channel, address.kind, address.id)
    : keys.channelRecord(address.channel, address.kind, address.id);
}

export async function getChannelRecord<T extends object>(table: Table, address: RecordAddress): Promise<T | undefined> {
  const { Item } = await table.doc.send(new GetCommand({ TableName: table.name, Key: keyOf(address), ConsistentRead: true }));
  // Records written before this module kept their fields at the top level.
  return Item ? ((Item.data ?? Item) as T) : undefined;
}

/** Writes a record; `ttlSeconds` lets the table forget it after that long. */
export async function putChannelRecord(table: Table, address: RecordAddress, data: object, options: { now?: Date; ttlSeconds?: number } = {}): Promise<void> {
  const now = options.now ?? new Date();
  await table.doc.send(
    new PutCommand({
      TableName: table.name,
      Item: {
        ...keyOf(address),
        type: entityTypes.channelRecord,
        data,
        updatedAt: now.toISOString(),
        ...(options.ttlSeconds ? { ttl: Math.floor(now.getTime() / 1000) + options.ttlSeconds } : {}),
      },
    }),
  );
}

export async function deleteChannelRecord(table: Table, address: RecordAddress): Promise<void> {
  await table.doc.send(new DeleteCommand({ TableName: table.name, Key: keyOf(address) }));
}

/** Every record of one kind under a connection (WhatsApp's signal keys), with their ids. */
export async function connectionRecordsOf<T extends object>(
  table: Table,
  address: { accountId: string; serviceId: string; channel: string; kind: string },
): Promise<{ sk: string; data: T }[]> {
  const { pk, skPrefix } = keys.connectionRecords(address.accountId, address.serviceId, address.channel, address.kind);
  const items = await queryAll<{ sk: string; data: T }>(table, {
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)',
    ExpressionAttributeValues: { ':pk': pk, ':p': skPrefix },
  });
  return items.map(({ sk, data }) => ({ sk, data }));
}

/** A claim someone holds alone: `<channel>-<kind>#<id>`, naming the connection that holds it. */
export interface ClaimAddress {
  channel: string;
  kind: string;
  id: string;
}

/** The transaction step that claims for a connection; refused when another holds the claim. */
export function claimStep(claim: ClaimAddress, holder: { accountId: string; serviceId: string }): TransactStep {
  return {
    Put: {
      Item: {
        ...keys.channelClaim(claim.channel, claim.kind, claim.id),
        type: entityTypes.channelClaim,
        accountId: holder.accountId,
        serviceId: holder.serviceId,
      },
      ConditionExpression: 'attribute_not_exists(pk) OR serviceId = :id',
      ExpressionAttributeValues: { ':id': holder.serviceId },
    },
  };
}

/** The transaction step that gives a claim up (only the holder's own; someone else's is left alone). */
export function releaseClaimStep(claim: ClaimAddress, holder: { serviceId: string }): TransactStep {
  return {
    Delete: {
      Key: keys.channelClaim(claim.channel, claim.kind, claim.id),
      ConditionExpression: 'attribute_not_exists(pk) OR serviceId = :id',
      ExpressionAttributeValues: { ':id': holder.serviceId },
    },
  };
}
