/**
 * Imports of contacts from a CSV file: one item per import in the account's partition, holding its
 * settings, how far the current pass (a check or the import) got and its counts. A stepped job
 * (`stepped-jobs.ts`): every step reads a bounded number of rows and its change runs the
 * `contact-import` stream consumer. The file and what a pass keeps between steps are in the bucket
 * (`importObjectKey`).
 */
import { PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { ContactImportSettings, ContactImportStatus, ImportRowProblem } from '#contracts/contact-imports.ts';
import type { Table } from './client.ts';
import { unlessConditionFails } from './conditions.ts';
import { entityTypes, keys } from './keys.ts';
import { advanceJob, getJob, pendingJobs } from './stepped-jobs.ts';
import { queryAll } from './users.ts';

/** How a pass reads the file (told by its first bytes when the pass starts; the encoding may turn Windows-1252 on the way). */
export interface ImportFormat {
  encoding: 'utf-8' | 'windows-1252';
  delimiter: ';' | ',' | '\t';
}

/** What a pass has done so far. */
export interface ImportProgress {
  /** `rows`: reading the file; `compose`: the rows left out become one CSV. */
  phase: 'rows' | 'compose';
  format: ImportFormat | null;
  /** The byte where the next record starts. */
  offset: number;
  /** The file's line of the next record (the header is line 1). */
  line: number;
  rows: number;
  accepted: number;
  skipped: number;
  rejected: number;
  /** Contacts a check still finds room for in the plan (a check's own count; an import's seats are taken one by one). */
  room: number;
  problems: ImportRowProblem[];
  /** Parts of the list of rows left out written so far. */
  parts: number;
  status: ContactImportStatus;
  finishedAt: string | null;
  problemsKey: string | null;
}

export interface ContactImportItem extends ImportProgress {
  pk: string;
  sk: string;
  gsi1pk?: string;
  gsi1sk?: string;
  type: typeof entityTypes.contactImport;
  id: string;
  accountId: string;
  requestedBy: string;
  fileName: string;
  size: number;
  objectKey: string;
  settings: ContactImportSettings | null;
  round: number;
  steppedAt?: string;
  createdAt: string;
}

export const freshProgress: Omit<ImportProgress, 'status' | 'room'> = {
  phase: 'rows',
  format: null,
  offset: 0,
  line: 1,
  rows: 0,
  accepted: 0,
  skipped: 0,
  rejected: 0,
  problems: [],
  parts: 0,
  finishedAt: null,
  problemsKey: null,
};

export async function putContactImport(
  table: Table,
  input: { accountId: string; id: string; requestedBy: string; fileName: string; size: number; objectKey: string; now: string },
): Promise<ContactImportItem> {
  const item: ContactImportItem = {
    ...keys.contactImport(input.accountId, input.id),
    type: entityTypes.contactImport,
    id: input.id,
    accountId: input.accountId,
    requestedBy: input.requestedBy,
    fileName: input.fileName,
    size: input.size,
    objectKey: input.objectKey,
    settings: null,
    ...freshProgress,
    status: 'waiting',
    room: 0,
    round: 0,
    steppedAt: input.now,
    createdAt: input.now,
  };
  await table.doc.send(new PutCommand({ TableName: table.name, Item: item, ConditionExpression: 'attribute_not_exists(pk)' }));
  return item;
}

export function getContactImport(table: Table, accountId: string, id: string): Promise<ContactImportItem | undefined> {
  return getJob(table, keys.contactImport(accountId, id));
}

const progressFields = (progress: ImportProgress) => ({
  phase: progress.phase,
  format: progress.format,
  offset: progress.offset,
  line: progress.line,
  rows: progress.rows,
  accepted: progress.accepted,
  skipped: progress.skipped,
  rejected: progress.rejected,
  room: progress.room,
  problems: progress.problems,
  parts: progress.parts,
  status: progress.status,
  finishedAt: progress.finishedAt,
  problemsKey: progress.problemsKey,
});

/**
 * Starts a pass (a check or the import) with its settings, only from a status it may start from and
 * at the round read: its change runs the first step. False when the import moved meanwhile.
 */
export async function startContactImportPass(
  table: Table,
  job: Pick<ContactImportItem, 'accountId' | 'id' | 'round' | 'status' | 'createdAt'>,
  settings: ContactImportSettings,
  progress: ImportProgress,
  now: string,
): Promise<boolean> {
  const answer = await unlessConditionFails(
    table.doc.send(
      new UpdateCommand({
        TableName: table.name,
        Key: keys.contactImport(job.accountId, job.id),
        UpdateExpression:
          'SET #round = #round + :one, steppedAt = :now, settings = :settings, gsi1pk = :gpk, gsi1sk = :gsk, ' +
          Object.keys(progressFields(progress))
            .map((field) => `#${field} = :${field}`)
            .join(', '),
        ConditionExpression: '#round = :round AND #status = :was',
        ExpressionAttributeNames: {
          '#round': 'round',
          ...Object.fromEntries(Object.keys(progressFields(progress)).map((field) => [`#${field}`, field])),
        },
        ExpressionAttributeValues: {
          ':one': 1,
          ':now': now,
          ':round': job.round,
          ':was': job.status,
          ':settings': settings,
          ':gpk': keys.pendingContactImport(job.createdAt, job.accountId, job.id).gsi1pk,
          ':gsk': keys.pendingContactImport(job.createdAt, job.accountId, job.id).gsi1sk,
          ...Object.fromEntries(Object.entries(progressFields(progress)).map(([field, value]) => [`:${field}`, value])),
        },
      }),
    ),
  );
  return answer !== undefined;
}

/** Records a step and asks for the next (`advanceJob`); the end of a pass takes the import off the pending list. */
export function advanceContactImport(
  table: Table,
  job: Pick<ContactImportItem, 'accountId' | 'id' | 'round'>,
  next: ImportProgress,
  now: string,
): Promise<boolean> {
  const ended = next.status === 'checked' || next.status === 'done';
  return advanceJob(table, {
    key: keys.contactImport(job.accountId, job.id),
    round: job.round,
    now,
    set: progressFields(next),
    remove: ended ? ['gsi1pk', 'gsi1sk'] : [],
  });
}

/** Imports with a pass running, oldest first (gsi1). */
export function pendingContactImports(table: Table): Promise<ContactImportItem[]> {
  return pendingJobs(table, keys.pendingContactImports().gsi1pk);
}

/** What the list of an account's imports reads of each: not its settings nor its first rows left out. */
const listedFields = [
  'id',
  'requestedBy',
  'fileName',
  'size',
  'status',
  'offset',
  'rows',
  'accepted',
  'skipped',
  'rejected',
  'problemsKey',
  'createdAt',
  'finishedAt',
] as const;
export type ListedContactImport = Pick<ContactImportItem, (typeof listedFields)[number]>;

/**
 * The account's imports, newest first (their ids are ULIDs), with only the fields a list shows. An
 * import stays as long as its files in the bucket: both go with the account's purge (ADR-0236).
 */
export function accountContactImports(table: Table, accountId: string): Promise<ListedContactImport[]> {
  const { pk, skPrefix } = keys.accountContactImports(accountId);
  return queryAll<ListedContactImport>(table, {
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :sk)',
    ExpressionAttributeValues: { ':pk': pk, ':sk': skPrefix },
    ProjectionExpression: listedFields.map((field) => `#${field}`).join(', '),
    ExpressionAttributeNames: Object.fromEntries(listedFields.map((field) => [`#${field}`, field])),
    ScanIndexForward: false,
  });
}
