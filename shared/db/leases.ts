/**
 * Session leases: the channel worker that holds a connection's session (a WhatsApp socket, a
 * Telegram long poll) owns its lease item, so one worker at a time does. A worker acquires the
 * lease before it opens the session, renews it while it holds it and releases it on a graceful
 * stop; a lease nobody renewed expires and another worker may take it.
 *
 * Clocks: `expiresAt` (epoch ms) is written from the writer's `Date.now()` and compared against the
 * next writer's `Date.now()`; the table has no clock of its own to ask. Workers' clocks differ by
 * a small skew, so a holder must treat its lease as lost some margin before `expiresAt` (the worker
 * does: see `connectors/worker.ts` and ADR-0064).
 */
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Table } from './client.ts';
import { unlessConditionFails } from './conditions.ts';
import { entityTypes, keys } from './keys.ts';

export interface LeaseItem {
  pk: string;
  sk: string;
  type: typeof entityTypes.sessionLease;
  serviceId: string;
  accountId: string;
  /** The worker holding the session (a random id per worker process). */
  ownerId: string;
  /** The run of the connection the holder's session serves. */
  runId: string;
  /** Epoch ms, by the writer's clock: after it, any worker may take the lease. */
  expiresAt: number;
  /** Epoch seconds: the table forgets an abandoned lease an hour after it expired. */
  ttl: number;
}

/** How long the table keeps an expired lease before TTL deletes it (tidiness only: an expired lease is free either way). */
const keepExpiredSeconds = 3600;

const ttlOf = (expiresAt: number) => Math.ceil(expiresAt / 1000) + keepExpiredSeconds;

export interface LeaseClaim {
  serviceId: string;
  accountId: string;
  ownerId: string;
  runId: string;
  /** The writer's clock (epoch ms), read before the write is sent. */
  now: number;
  leaseMs: number;
}

/** Takes the lease when nobody holds it, its holder let it expire, or the claimant holds it already; undefined when another worker holds it. */
export async function acquireLease(table: Table, claim: LeaseClaim): Promise<LeaseItem | undefined> {
  const expiresAt = claim.now + claim.leaseMs;
  const item: LeaseItem = {
    ...keys.sessionLease(claim.serviceId),
    type: entityTypes.sessionLease,
    serviceId: claim.serviceId,
    accountId: claim.accountId,
    ownerId: claim.ownerId,
    runId: claim.runId,
    expiresAt,
    ttl: ttlOf(expiresAt),
  };
  const written = await unlessConditionFails(
    table.doc.send(
      new PutCommand({
        TableName: table.name,
        Item: item,
        ConditionExpression: 'attribute_not_exists(pk) OR expiresAt < :now OR ownerId = :me',
        ExpressionAttributeValues: { ':now': claim.now, ':me': claim.ownerId },
      }),
    ),
  );
  return written ? item : undefined;
}

/** Extends a lease the claimant holds (and records its current run); false when another worker holds it or it is gone. */
export async function renewLease(table: Table, claim: Omit<LeaseClaim, 'accountId'>): Promise<boolean> {
  const expiresAt = claim.now + claim.leaseMs;
  const written = await unlessConditionFails(
    table.doc.send(
      new UpdateCommand({
        TableName: table.name,
        Key: keys.sessionLease(claim.serviceId),
        UpdateExpression: 'SET expiresAt = :expires, runId = :run, #ttl = :ttl',
        ConditionExpression: 'ownerId = :me',
        ExpressionAttributeNames: { '#ttl': 'ttl' },
        ExpressionAttributeValues: { ':expires': expiresAt, ':run': claim.runId, ':ttl': ttlOf(expiresAt), ':me': claim.ownerId },
      }),
    ),
  );
  return written !== undefined;
}

/** Gives a lease up so another worker can take it at once; false when the claimant did not hold it. */
export async function releaseLease(table: Table, serviceId: string, ownerId: string): Promise<boolean> {
  const deleted = await unlessConditionFails(
    table.doc.send(
      new DeleteCommand({
        TableName: table.name,
        Key: keys.sessionLease(serviceId),
        ConditionExpression: 'ownerId = :me',
        ExpressionAttributeValues: { ':me': ownerId },
      }),
    ),
  );
  return deleted !== undefined;
}

export async function readLease(table: Table, serviceId: string): Promise<LeaseItem | undefined> {
  const { Item } = await table.doc.send(new GetCommand({ TableName: table.name, Key: keys.sessionLease(serviceId), ConsistentRead: true }));
  return Item as LeaseItem | undefined;
}
