/**
 * Channel records of a connection written only while the writer holds the connection's session
 * lease (`leases.ts`): once another worker has taken the session over, a late write of the old
 * holder (a slow stop, a lost network) is refused instead of overwriting what the new holder wrote.
 * Each write is one transaction: the record's Put or Delete, and a condition check on the lease
 * item (`ownerId = :me`). The items are shaped as `channel-records.ts` writes them; `keys.ts` builds
 * both keys.
 */
import type { RecordAddress } from './channel-records.ts';
import type { Table } from './client.ts';
import { entityTypes, keys } from './keys.ts';
import { refusedBy, type ConditionCheckStep, type TransactStep, writeTogether } from './transaction.ts';

/** Whose lease fences the writes: the connection and the worker that must hold it. */
export interface LeaseFence {
  serviceId: string;
  ownerId: string;
}

type ConnectionAddress = Extract<RecordAddress, { scope: 'connection' }>;

const keyOf = (address: ConnectionAddress) => keys.connectionRecord(address.accountId, address.serviceId, address.channel, address.kind, address.id);

const leaseHeld = (fence: LeaseFence): ConditionCheckStep => ({
  ConditionCheck: { Key: keys.sessionLease(fence.serviceId), ConditionExpression: 'ownerId = :me', ExpressionAttributeValues: { ':me': fence.ownerId } },
});

/** Whether a write happened: false when the lease is gone or another worker holds it. */
async function underLease(table: Table, fence: LeaseFence, record: TransactStep): Promise<boolean> {
  try {
    await writeTogether(table, { lease: leaseHeld(fence), record });
    return true;
  } catch (error) {
    if (refusedBy(error, 'lease')) return false;
    throw error;
  }
}

/** Writes a record (as `putChannelRecord` does) if `fence.ownerId` holds the lease; false when it does not. */
export function putRecordUnderLease(table: Table, address: ConnectionAddress, data: object, fence: LeaseFence, now = new Date()): Promise<boolean> {
  return underLease(table, fence, {
    Put: { Item: { ...keyOf(address), type: entityTypes.channelRecord, data, updatedAt: now.toISOString() } },
  });
}

/** Deletes a record if `fence.ownerId` holds the lease; false when it does not. */
export function deleteRecordUnderLease(table: Table, address: ConnectionAddress, fence: LeaseFence): Promise<boolean> {
  return underLease(table, fence, { Delete: { Key: keyOf(address) } });
}
