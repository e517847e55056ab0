/** Fixed-window counters for rate limiting; each window expires by TTL. */
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Table } from './client.ts';
import { entityTypes, keys } from './keys.ts';

function window(nowMs: number, windowSeconds: number) {
  const start = Math.floor(nowMs / 1000 / windowSeconds) * windowSeconds;
  return { start, end: start + windowSeconds };
}

export async function readCounter(table: Table, scope: string, subject: string, windowSeconds: number, nowMs: number): Promise<number> {
  const { start } = window(nowMs, windowSeconds);
  const { Item } = await table.doc.send(new GetCommand({ TableName: table.name, Key: keys.rate(scope, subject, start) }));
  return Number(Item?.count ?? 0);
}

export async function bumpCounter(table: Table, scope: string, subject: string, windowSeconds: number, nowMs: number): Promise<number> {
  const { start, end } = window(nowMs, windowSeconds);
  const { Attributes } = await table.doc.send(
    new UpdateCommand({
      TableName: table.name,
      Key: keys.rate(scope, subject, start),
      UpdateExpression: 'ADD #count :one SET #type = :type, #ttl = :ttl',
      ExpressionAttributeNames: { '#count': 'count', '#type': 'type', '#ttl': 'ttl' },
      ExpressionAttributeValues: { ':one': 1, ':type': entityTypes.rate, ':ttl': end },
      ReturnValues: 'UPDATED_NEW',
    }),
  );
  return Number(Attributes?.count ?? 1);
}
