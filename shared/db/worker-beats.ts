/**
 * Channel workers' heartbeats: each worker process keeps one item saying it is alive, written on
 * its lease-renewal timer (`connectors/worker.ts`) and deleted on a graceful stop. A worker that
 * holds no session holds no lease, so the leases alone cannot say whether any worker runs; these
 * items can. `expiresAt` is written by the worker from its own lease period, so a reader needs no
 * setting of its own to tell a live worker from a dead one.
 *
 * The fleet reads them too (ADR-0203): each beat says how many
 * sessions its worker holds and may hold, so a command for a connection nobody holds is placed on
 * the live worker with the most room, and workers count each other to share the sessions out; a
 * dead worker's item is claimed by one live worker (`claimDrain`), which empties the dead worker's
 * own queue and then deletes the item.
 */
import { DeleteCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Table } from './client.ts';
import { unlessConditionFails } from './conditions.ts';
import { entityTypes, keys } from './keys.ts';

export interface WorkerBeatItem {
  pk: string;
  sk: string;
  type: typeof entityTypes.workerBeat;
  workerId: string;
  /** Sessions held at the beat. */
  sessions: number;
  /** The most sessions the worker holds; absent when unlimited. */
  capacity?: number;
  /** Epoch ms, by the worker's clock: when it last beat. */
  beatAt: number;
  /** Epoch ms: past it, without a new beat, the worker counts as gone (its beat time plus its lease period). */
  expiresAt: number;
  /** Epoch seconds: the table forgets a dead worker's item an hour after it expired. */
  ttl: number;
  /** A dead worker's item claimed for draining its queue: by whom, until when (epoch ms; past it another worker may claim it). */
  drainBy?: string;
  drainUntil?: number;
}

export interface WorkerBeat {
  workerId: string;
  now: number;
  leaseMs: number;
  sessions: number;
  capacity?: number;
}

export async function writeWorkerBeat(table: Table, beat: WorkerBeat): Promise<void> {
  const expiresAt = beat.now + beat.leaseMs;
  const item: WorkerBeatItem = {
    ...keys.workerBeat(beat.workerId),
    type: entityTypes.workerBeat,
    workerId: beat.workerId,
    sessions: beat.sessions,
    ...(beat.capacity !== undefined && Number.isFinite(beat.capacity) ? { capacity: beat.capacity } : {}),
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
        ProjectionExpression: 'workerId, sessions, #capacity, beatAt, expiresAt, drainBy, drainUntil',
        ExpressionAttributeNames: { '#capacity': 'capacity' },
        ExclusiveStartKey: start,
      }),
    );
    items.push(...((page.Items ?? []) as WorkerBeatItem[]));
    start = page.LastEvaluatedKey;
  } while (start);
  return items;
}

/**
 * Claims a dead worker's item (its beat expired) to drain its queue: true for one claimant at a
 * time; a claim not finished by `until` (the claimant died too) may be taken by another.
 */
export async function claimDrain(table: Table, claim: { workerId: string; by: string; now: number; until: number }): Promise<boolean> {
  const written = await unlessConditionFails(
    table.doc.send(
      new UpdateCommand({
        TableName: table.name,
        Key: keys.workerBeat(claim.workerId),
        UpdateExpression: 'SET drainBy = :by, drainUntil = :until',
        ConditionExpression: 'attribute_exists(pk) AND expiresAt < :now AND (attribute_not_exists(drainUntil) OR drainUntil < :now)',
        ExpressionAttributeValues: { ':by': claim.by, ':until': claim.until, ':now': claim.now },
      }),
    ),
  );
  return written !== undefined;
}

/**
 * A worker leaving (a graceful stop): its beat counts as expired at once (nothing more is placed
 * on it, the health route stops counting it) and is claimed by the worker itself for draining its
 * own queue; should it die before it deletes the item, another worker claims it after `until`.
 */
export async function markLeaving(table: Table, leaving: { workerId: string; now: number; until: number }): Promise<void> {
  await unlessConditionFails(
    table.doc.send(
      new UpdateCommand({
        TableName: table.name,
        Key: keys.workerBeat(leaving.workerId),
        UpdateExpression: 'SET expiresAt = :past, drainBy = :me, drainUntil = :until',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':past': leaving.now - 1, ':me': leaving.workerId, ':until': leaving.until },
      }),
    ),
  );
}

/** Gives a drain claim up (the queue still had commands in flight): the next look, by any worker, may claim it again. */
export async function releaseDrain(table: Table, release: { workerId: string; by: string }): Promise<void> {
  await unlessConditionFails(
    table.doc.send(
      new UpdateCommand({
        TableName: table.name,
        Key: keys.workerBeat(release.workerId),
        UpdateExpression: 'SET drainUntil = :zero',
        ConditionExpression: 'drainBy = :me',
        ExpressionAttributeValues: { ':zero': 0, ':me': release.by },
      }),
    ),
  );
}
