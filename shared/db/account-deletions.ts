/**
 * The purge job of a deleted account: one item per account, outside the partitions it empties,
 * holding what the purge needs once the account's own items are gone (the owner to tell, the
 * users and connections whose items live elsewhere) and how far it got (`phase`). A stepped job
 * (`stepped-jobs.ts`) whose changes run the `account-deletion` stream consumer; the item goes when
 * the purge is done.
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Table } from './client.ts';
import { entityTypes, keys } from './keys.ts';
import { advanceJob, getJob, pendingJobs, removeJob } from './stepped-jobs.ts';
import type { PutStep, UpdateStep } from './transaction.ts';

/**
 * In order: `requested` (the request is still ending the account's sessions), `connections`
 * (stopped, logged out and removed), `sessions` (waiting for the channel worker to let go of them),
 * `contacts` (each with its messages), `partitions` (everything else the account left in the
 * table), `files` (the bucket), `notify` (the owner's e-mail).
 */
export const deletionPhases = ['requested', 'connections', 'sessions', 'contacts', 'partitions', 'files', 'notify'] as const;
export type DeletionPhase = (typeof deletionPhases)[number];

export interface AccountDeletionItem {
  pk: string;
  sk: string;
  gsi1pk: string;
  gsi1sk: string;
  type: typeof entityTypes.accountDeletion;
  accountId: string;
  accountName: string;
  ownerName: string;
  ownerEmail: string;
  /** Users of the account when it was deleted (their one-time codes live under the user). */
  userIds: string[];
  /** Connections met by the purge (their partitions and leases are emptied after they stop). */
  serviceIds?: Set<string>;
  stripeCustomerId: string | null;
  /**
   * When the account was made: its conversation events' month partitions (`keys.conversationEvent`)
   * are purged from that month on. Absent on jobs stored before it was kept.
   */
  accountCreatedAt?: string;
  requestedAt: string;
  phase: DeletionPhase;
  round: number;
  /** When a step (or a resume) last moved the job on; `requestedAt` until then. */
  steppedAt?: string;
  /** When the purge started waiting for the channel worker (phase `sessions`). */
  waitingSince?: string | null;
  /** Items and objects removed so far. */
  removedItems: number;
  removedObjects: number;
}

export function accountDeletionItem(input: {
  accountId: string;
  accountName: string;
  ownerName: string;
  ownerEmail: string;
  userIds: string[];
  stripeCustomerId: string | null;
  accountCreatedAt: string;
  requestedAt: string;
}): AccountDeletionItem {
  return {
    ...keys.accountDeletion(input.accountId),
    ...keys.pendingAccountDeletion(input.requestedAt, input.accountId),
    type: entityTypes.accountDeletion,
    ...input,
    phase: 'requested',
    round: 0,
    steppedAt: input.requestedAt,
    removedItems: 0,
    removedObjects: 0,
  };
}

/** Transaction member: the job starts (after the request ended the account's sessions). */
export function startDeletionStep(accountId: string, now: string): UpdateStep {
  return {
    Update: {
      Key: keys.accountDeletion(accountId),
      UpdateExpression: 'SET phase = :next, round = round + :one, steppedAt = :now',
      ConditionExpression: 'phase = :requested',
      ExpressionAttributeValues: { ':next': 'connections', ':one': 1, ':requested': 'requested', ':now': now },
    },
  };
}

/** Transaction member: the job, new. */
export function newDeletionStep(item: AccountDeletionItem): PutStep {
  return { Put: { Item: { ...item }, ConditionExpression: 'attribute_not_exists(pk)' } };
}

export function getAccountDeletion(table: Table, accountId: string): Promise<AccountDeletionItem | undefined> {
  return getJob(table, keys.accountDeletion(accountId));
}

/** Remembers connections the purge met, before it removes them. */
export async function rememberDeletedServices(table: Table, accountId: string, serviceIds: string[]): Promise<void> {
  if (!serviceIds.length) return;
  await table.doc.send(
    new UpdateCommand({
      TableName: table.name,
      Key: keys.accountDeletion(accountId),
      UpdateExpression: 'ADD serviceIds :ids',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: { ':ids': new Set(serviceIds) },
    }),
  );
}

/** Records a step's progress and asks for the next step (`advanceJob`); with no progress, a resume's nudge. */
export function advanceAccountDeletion(
  table: Table,
  job: Pick<AccountDeletionItem, 'accountId' | 'round'>,
  progress: { phase?: DeletionPhase; waitingSince?: string | null; removedItems?: number; removedObjects?: number },
  now: string,
): Promise<boolean> {
  return advanceJob(table, {
    key: keys.accountDeletion(job.accountId),
    round: job.round,
    now,
    set: { phase: progress.phase, waitingSince: progress.waitingSince },
    add: { removedItems: progress.removedItems ?? 0, removedObjects: progress.removedObjects ?? 0 },
  });
}

/** Unfinished purges, oldest first (gsi1). */
export function pendingAccountDeletions(table: Table): Promise<AccountDeletionItem[]> {
  return pendingJobs(table, keys.pendingAccountDeletions().gsi1pk);
}

export function removeAccountDeletion(table: Table, accountId: string): Promise<void> {
  return removeJob(table, keys.accountDeletion(accountId));
}
