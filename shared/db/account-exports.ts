/**
 * Exports of an account's data (LGPD access request): one item per export in the account's
 * partition, holding how far it got. A stepped job (`stepped-jobs.ts`): every step writes one part
 * of the archive to the bucket, and its change runs the `account-export` stream consumer.
 */
import { PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { Table } from './client.ts';
import { entityTypes, keys } from './keys.ts';
import { advanceJob, getJob, pendingJobs } from './stepped-jobs.ts';

/** `own`: the account's own items; `messages`: each contact's conversation; `compose`: the parts become one archive. */
export type ExportPhase = 'own' | 'messages' | 'compose';

export interface AccountExportItem {
  pk: string;
  sk: string;
  /** Listed in gsi1 (`pendingAccountExport`) while it runs, so a resume finds it without a scan. */
  gsi1pk?: string;
  gsi1sk?: string;
  type: typeof entityTypes.accountExport;
  id: string;
  accountId: string;
  requestedBy: string;
  status: 'running' | 'done';
  phase: ExportPhase;
  /** Where the current phase goes on: a Query's start key. */
  cursor: Record<string, unknown> | null;
  /** The contact whose conversation is being written (phase `messages`). */
  contactSk: string | null;
  /** Parts written so far. */
  parts: number;
  lines: number;
  round: number;
  /** When a step (or a resume) last moved the export on; `createdAt` until then. */
  steppedAt?: string;
  createdAt: string;
  finishedAt: string | null;
  /** The archive's bucket key, once done. */
  objectKey: string | null;
}

export async function putAccountExport(table: Table, input: { accountId: string; id: string; requestedBy: string; now: string }): Promise<AccountExportItem> {
  const item: AccountExportItem = {
    ...keys.accountExport(input.accountId, input.id),
    ...keys.pendingAccountExport(input.now, input.accountId, input.id),
    type: entityTypes.accountExport,
    id: input.id,
    accountId: input.accountId,
    requestedBy: input.requestedBy,
    status: 'running',
    phase: 'own',
    cursor: null,
    contactSk: null,
    parts: 0,
    lines: 0,
    round: 0,
    steppedAt: input.now,
    createdAt: input.now,
    finishedAt: null,
    objectKey: null,
  };
  await table.doc.send(new PutCommand({ TableName: table.name, Item: item, ConditionExpression: 'attribute_not_exists(pk)' }));
  return item;
}

export function getAccountExport(table: Table, accountId: string, id: string): Promise<AccountExportItem | undefined> {
  return getJob(table, keys.accountExport(accountId, id));
}

/**
 * Records a step and asks for the next (`advanceJob`). The last step (`status` done) takes the
 * export off the pending list. A resume is the same move with the item's own values.
 */
export function advanceAccountExport(
  table: Table,
  job: Pick<AccountExportItem, 'accountId' | 'id' | 'round'>,
  next: Pick<AccountExportItem, 'phase' | 'cursor' | 'contactSk' | 'parts' | 'lines' | 'status' | 'finishedAt' | 'objectKey'>,
  now: string,
): Promise<boolean> {
  const { phase, cursor, contactSk, parts, lines, status, finishedAt, objectKey } = next;
  return advanceJob(table, {
    key: keys.accountExport(job.accountId, job.id),
    round: job.round,
    now,
    set: { phase, cursor, contactSk, parts, lines, status, finishedAt, objectKey },
    remove: status === 'done' ? ['gsi1pk', 'gsi1sk'] : [],
  });
}

/** Exports still running, oldest first (gsi1). */
export function pendingAccountExports(table: Table): Promise<AccountExportItem[]> {
  return pendingJobs(table, keys.pendingAccountExports().gsi1pk);
}

/** A page of a partition from a start key (optionally of a sort-key prefix, or after a sort key). */
export async function pageOf(
  table: Table,
  input: { pk: string; skPrefix?: string; after?: string; limit: number; start: Record<string, unknown> | null },
): Promise<{ items: Record<string, unknown>[]; next: Record<string, unknown> | null }> {
  const condition = input.after ? 'pk = :pk AND sk > :after' : input.skPrefix ? 'pk = :pk AND begins_with(sk, :p)' : 'pk = :pk';
  const { Items, LastEvaluatedKey } = await table.doc.send(
    new QueryCommand({
      TableName: table.name,
      KeyConditionExpression: condition,
      ExpressionAttributeValues: {
        ':pk': input.pk,
        ...(input.after ? { ':after': input.after } : {}),
        ...(input.skPrefix && !input.after ? { ':p': input.skPrefix } : {}),
      },
      Limit: input.limit,
      ...(input.start ? { ExclusiveStartKey: input.start } : {}),
    }),
  );
  return { items: (Items ?? []) as Record<string, unknown>[], next: (LastEvaluatedKey as Record<string, unknown> | undefined) ?? null };
}
