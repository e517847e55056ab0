/**
 * Emptying partitions a few items at a time (the purge of a deleted account or contact): read the
 * first items of a partition, delete them, and again; since what is deleted is gone, a purge that
 * stops anywhere resumes by starting over. Keys come from `keys.ts`.
 */
import { BatchWriteCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { Table } from './client.ts';
import type { Key } from './keys.ts';

/** The first items of a partition (optionally of a sort-key prefix), whole. */
export async function firstItems<T extends Key>(table: Table, pk: string, limit: number, skPrefix?: string): Promise<T[]> {
  const { Items } = await table.doc.send(
    new QueryCommand({
      TableName: table.name,
      KeyConditionExpression: skPrefix ? 'pk = :pk AND begins_with(sk, :p)' : 'pk = :pk',
      ExpressionAttributeValues: skPrefix ? { ':pk': pk, ':p': skPrefix } : { ':pk': pk },
      Limit: limit,
      ConsistentRead: true,
    }),
  );
  return (Items ?? []) as T[];
}

/** Deletes items by key (each once), 25 a batch, until DynamoDB has processed every one. Answers how many. */
export async function deleteKeys(table: Table, given: readonly Key[]): Promise<number> {
  // A batch may not name one key twice.
  const itemKeys = [...new Map(given.map(({ pk, sk }) => [`${pk}\u0000${sk}`, { pk, sk }])).values()];
  for (let i = 0; i < itemKeys.length; i += 25) {
    let requests: Record<string, unknown>[] = itemKeys.slice(i, i + 25).map(({ pk, sk }) => ({ DeleteRequest: { Key: { pk, sk } } }));
    for (let attempt = 0; requests.length; attempt++) {
      if (attempt) await new Promise((r) => setTimeout(r, Math.min(1000, 50 * 2 ** attempt)));
      const { UnprocessedItems } = await table.doc.send(new BatchWriteCommand({ RequestItems: { [table.name]: requests as never } }));
      requests = (UnprocessedItems?.[table.name] ?? []) as Record<string, unknown>[];
    }
  }
  return itemKeys.length;
}

/**
 * Deletes up to `budget` items of a partition (optionally of a sort-key prefix). Answers how many
 * it deleted and whether the partition is empty now.
 */
export async function purgePartition(table: Table, pk: string, budget: number, skPrefix?: string): Promise<{ removed: number; empty: boolean }> {
  let removed = 0;
  while (removed < budget) {
    const items = await firstItems(table, pk, Math.min(100, budget - removed), skPrefix);
    if (!items.length) return { removed, empty: true };
    removed += await deleteKeys(table, items);
  }
  return { removed, empty: (await firstItems(table, pk, 1, skPrefix)).length === 0 };
}
