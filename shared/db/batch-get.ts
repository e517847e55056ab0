/**
 * Items by their keys, 100 a BatchGetItem (its limit), asking again with a growing pause for the
 * keys DynamoDB left unprocessed (it does under throttling, or past 16 MB an answer). Keys not found
 * are left out; the order is DynamoDB's, not the keys'.
 */
import { BatchGetCommand } from '@aws-sdk/lib-dynamodb';
import type { Table } from './client.ts';
import type { Key } from './keys.ts';

/** Rounds a batch's unprocessed keys are asked again before the read fails. */
const maxAttempts = 9;

export async function getItems(table: Table, keys: Key[]): Promise<Record<string, unknown>[]> {
  const found: Record<string, unknown>[] = [];
  for (let i = 0; i < keys.length; i += 100) {
    let wanted: Key[] = keys.slice(i, i + 100);
    for (let attempt = 0; wanted.length > 0; attempt++) {
      if (attempt >= maxAttempts) throw new Error(`Could not read ${wanted.length} items: DynamoDB left them unprocessed ${maxAttempts} times`);
      if (attempt > 0) await new Promise((r) => setTimeout(r, Math.min(2 ** attempt * 10, 500)));
      const answer = await table.doc.send(new BatchGetCommand({ RequestItems: { [table.name]: { Keys: wanted } } }));
      found.push(...(answer.Responses?.[table.name] ?? []));
      wanted = (answer.UnprocessedKeys?.[table.name]?.Keys ?? []) as Key[];
    }
  }
  return found;
}

/** Whether `item` is the one at `key`. */
export const isAt = (key: Key) => (item: Record<string, unknown>) => item.pk === key.pk && item.sk === key.sk;
