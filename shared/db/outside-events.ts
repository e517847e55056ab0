/**
 * Idempotency of events from outside (a Telegram update, a Stripe event): whether one was already
 * handled, and recording that it was. Kept a week, longer than any sender retries.
 */
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { Table } from './client.ts';
import { entityTypes, keys } from './keys.ts';

const eventRetentionSeconds = 7 * 24 * 60 * 60;

export async function wasEventHandled(table: Table, source: string, id: string): Promise<boolean> {
  const { Item } = await table.doc.send(new GetCommand({ TableName: table.name, Key: keys.outsideEvent(source, id), ConsistentRead: true }));
  return Boolean(Item);
}

export async function markEventHandled(table: Table, source: string, id: string, now: Date): Promise<void> {
  await table.doc.send(
    new PutCommand({
      TableName: table.name,
      Item: {
        ...keys.outsideEvent(source, id),
        type: entityTypes.outsideEvent,
        handledAt: now.toISOString(),
        ttl: Math.floor(now.getTime() / 1000) + eventRetentionSeconds,
      },
    }),
  );
}
