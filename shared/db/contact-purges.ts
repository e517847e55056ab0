/**
 * The purge of a deleted contact, kept on its tombstone (`purge`, `purgeRound`, listed in gsi1
 * while it lasts): every step bumps `purgeRound` conditionally, and that change runs the next step
 * (the `contact-purge` stream consumer); the last step clears `purge` and the gsi1 entry.
 */
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Table } from './client.ts';
import { unlessConditionFails } from './conditions.ts';
import type { ContactTombstone } from './contacts.ts';
import { keys } from './keys.ts';
import { queryAll } from './users.ts';

export async function getContactTombstone(table: Table, accountId: string, contactId: string): Promise<ContactTombstone | undefined> {
  const { Item } = await table.doc.send(new GetCommand({ TableName: table.name, Key: keys.contactTombstone(accountId, contactId), ConsistentRead: true }));
  return Item as ContactTombstone | undefined;
}

/**
 * Asks for the next step (and records when: `purgeSteppedAt`), unless another step moved the purge
 * since `round` was read. A resume (`nudgeContactPurge`) is the same move without a step's work.
 */
export async function advanceContactPurge(table: Table, tombstone: Pick<ContactTombstone, 'accountId' | 'id'>, round: number, now: string): Promise<boolean> {
  const answer = await unlessConditionFails(
    table.doc.send(
      new UpdateCommand({
        TableName: table.name,
        Key: keys.contactTombstone(tombstone.accountId, tombstone.id),
        UpdateExpression: 'SET purgeRound = purgeRound + :one, purgeSteppedAt = :now',
        ConditionExpression: 'purge = :true AND purgeRound = :round',
        ExpressionAttributeValues: { ':one': 1, ':true': true, ':round': round, ':now': now },
      }),
    ),
  );
  return answer !== undefined;
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
  return queryAll<ContactTombstone>(table, {
    IndexName: 'gsi1',
    KeyConditionExpression: 'gsi1pk = :pk',
    ExpressionAttributeValues: { ':pk': keys.pendingContactPurges().gsi1pk },
  });
}
