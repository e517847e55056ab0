/**
 * The purge of a deleted contact, kept on its tombstone (`purge`, `purgeRound`, listed in gsi1
 * while it lasts): a stepped job (`stepped-jobs.ts`) whose changes run the `contact-purge` stream
 * consumer; the last step clears `purge` and the gsi1 entry.
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Table } from './client.ts';
import { unlessConditionFails } from './conditions.ts';
import type { ContactTombstone } from './contacts.ts';
import { keys } from './keys.ts';
import { advanceJob, getJob, pendingJobs } from './stepped-jobs.ts';

export function getContactTombstone(table: Table, accountId: string, contactId: string): Promise<ContactTombstone | undefined> {
  return getJob(table, keys.contactTombstone(accountId, contactId));
}

/**
 * Asks for the next step (`advanceJob`, with the tombstone's `purgeRound` and `purgeSteppedAt`)
 * while the purge lasts. A resume is the same move without a step's work.
 */
export function advanceContactPurge(table: Table, tombstone: Pick<ContactTombstone, 'accountId' | 'id'>, round: number, now: string): Promise<boolean> {
  return advanceJob(table, {
    key: keys.contactTombstone(tombstone.accountId, tombstone.id),
    counters: { round: 'purgeRound', steppedAt: 'purgeSteppedAt' },
    round,
    now,
    only: { purge: true },
  });
}

/** The purge is done: the tombstone stays (the directories still learn of the deletion) without it. */
export async function finishContactPurge(table: Table, tombstone: Pick<ContactTombstone, 'accountId' | 'id'>): Promise<void> {
  await unlessConditionFails(
    table.doc.send(
      new UpdateCommand({
        TableName: table.name,
        Key: keys.contactTombstone(tombstone.accountId, tombstone.id),
        UpdateExpression: 'REMOVE purge, purgeRound, purgeSteppedAt, gsi1pk, gsi1sk',
        ConditionExpression: 'attribute_exists(pk)',
      }),
    ),
  );
}

/** Purges not finished yet (gsi1). */
export function pendingContactPurges(table: Table): Promise<ContactTombstone[]> {
  return pendingJobs(table, keys.pendingContactPurges().gsi1pk);
}
