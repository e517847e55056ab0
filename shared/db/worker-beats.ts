/**
 * Channel workers' heartbeats: each worker process keeps one item saying it is alive, written on
 * its lease-renewal timer (`connectors/worker.ts`) and deleted on a graceful stop. A worker that
 * holds no session holds no lease, so the leases alone cannot say whether any worker runs; these
 * items can. `expiresAt` is written by the worker from its own lease period, so a reader needs no
 * setting of its own to tell a live worker from a dead one.
 */
import { DeleteCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { Table } from './client.ts';
import { entityTypes, keys } from './keys.ts';

export interface WorkerBeatItem {
  pk: string;
  sk: string;
  type: typeof entityTypes.workerBeat;
  /** Epoch ms, by the worker's clock: when it last beat. */
  beatAt: number;
  /** Epoch ms: past it, without a new beat, the worker counts as gone (its beat time plus its lease period). */
  expiresAt: number;
  /** Epoch seconds: the table forgets a dead worker's item an hour after it expired. */
  ttl: number;
}

export async function writeWorkerBeat(table: Table, beat: { workerId: string; now: number; leaseMs: number }): Promise<void> {
  const expiresAt = beat.now + beat.leaseMs;
  const item: WorkerBeatItem = {
    ...keys.workerBeat(beat.workerId),
    type: entityTypes.workerBeat,
    beatAt: beat.now,
    expiresAt,
    ttl: Math.ceil(expiresAt / 1000) + 3600,
  };
  await table.doc.send(new PutCommand({ TableName: table.name, Item: item }));
}

export async function deleteWorkerBeat(table: Table, workerId: string): Promise<void> {
  await table.doc.send(new DeleteCommand({ TableName: table.name, Key: keys.workerBeat(workerId) }));
}

/** Every worker's last beat (live or not yet forgotten by TTL); a handful of items. */
export async function listWorkerBeats(table: Table): Promise<WorkerBeatItem[]> {
  const { pk, skPrefix } = keys.workerBeats();
  const items: WorkerBeatItem[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await table.doc.send(
      new QueryCommand({
        TableName: table.name,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)',
        ExpressionAttributeValues: { ':pk': pk, ':p': skPrefix },
        ProjectionExpression: 'beatAt, expiresAt',
        ExclusiveStartKey: start,
      }),
    );
    items.push(...((page.Items ?? []) as WorkerBeatItem[]));
    start = page.LastEvaluatedKey;
  } while (start);
  return items;
}
