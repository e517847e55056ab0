/**
 * The table side of a stepped job (an account's purge, an export of an account's data, a deleted
 * contact's purge): one item holds how far the job got and a round counter. Every step bumps the
 * round conditionally on the round it read: that change (through the table's stream) runs the next
 * step, and a second chain of steps (a retried record, a resume) loses the race and stops. While a
 * job runs its item is listed in gsi1, so a resume finds it without a scan. Each job's own module
 * holds its item, its keys (from `keys.ts`) and what its steps write besides the round.
 */
import { DeleteCommand, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Table } from './client.ts';
import { unlessConditionFails } from './conditions.ts';
import type { Key } from './keys.ts';
import { queryAll } from './users.ts';

/** The attributes a job keeps its round and the time of its last step in. */
export interface JobCounters {
  round: string;
  steppedAt: string;
}

const ownCounters: JobCounters = { round: 'round', steppedAt: 'steppedAt' };

export interface JobAdvance {
  /** The job's item. */
  key: Key;
  /** @default { round: 'round', steppedAt: 'steppedAt' } */
  counters?: JobCounters;
  /** The round the step read the job at. */
  round: number;
  now: string;
  /** Attributes the step sets (an undefined value leaves its attribute as it is). */
  set?: Record<string, unknown>;
  /** Counters the step adds to. */
  add?: Record<string, number>;
  /** Attributes the step removes (the last step: the job's gsi1 listing). */
  remove?: readonly string[];
  /** Values attributes must still hold besides the round (a tombstone: still marked for its purge). */
  only?: Record<string, unknown>;
}

/**
 * Records a step (and when: the `steppedAt` counter) and asks for the next, only if no other step
 * moved the job since its round was read. False when one did: this chain of steps ends there. With
 * nothing to set it is a resume's nudge: the change alone runs the next step.
 */
export async function advanceJob(table: Table, advance: JobAdvance): Promise<boolean> {
  const { round, steppedAt } = advance.counters ?? ownCounters;
  const names: Record<string, string> = {};
  const name = (field: string) => {
    names[`#${field}`] = field;
    return `#${field}`;
  };
  const values: Record<string, unknown> = { ':one': 1, ':now': advance.now, ':round': advance.round };
  const sets = [`${name(round)} = ${name(round)} + :one`, `${name(steppedAt)} = :now`];
  for (const [field, value] of Object.entries(advance.set ?? {})) {
    if (value === undefined) continue;
    sets.push(`${name(field)} = :${field}`);
    values[`:${field}`] = value;
  }
  for (const [field, value] of Object.entries(advance.add ?? {})) {
    sets.push(`${name(field)} = ${name(field)} + :${field}`);
    values[`:${field}`] = value;
  }
  const conditions = [`${name(round)} = :round`];
  for (const [field, value] of Object.entries(advance.only ?? {})) {
    conditions.push(`${name(field)} = :only_${field}`);
    values[`:only_${field}`] = value;
  }
  const removes = (advance.remove ?? []).map(name);
  const answer = await unlessConditionFails(
    table.doc.send(
      new UpdateCommand({
        TableName: table.name,
        Key: advance.key,
        UpdateExpression: `SET ${sets.join(', ')}${removes.length ? ` REMOVE ${removes.join(', ')}` : ''}`,
        ConditionExpression: conditions.join(' AND '),
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
      }),
    ),
  );
  return answer !== undefined;
}

/** A job's item as it is now (a consistent read: the step that follows a change sees it). */
export async function getJob<T>(table: Table, key: Key): Promise<T | undefined> {
  const { Item } = await table.doc.send(new GetCommand({ TableName: table.name, Key: key, ConsistentRead: true }));
  return Item as T | undefined;
}

/** Jobs still listed as running under one gsi1 partition, oldest first. */
export function pendingJobs<T>(table: Table, gsi1pk: string): Promise<T[]> {
  return queryAll<T>(table, {
    IndexName: 'gsi1',
    KeyConditionExpression: 'gsi1pk = :pk',
    ExpressionAttributeValues: { ':pk': gsi1pk },
  });
}

/** A job whose item goes when it is done. */
export async function removeJob(table: Table, key: Key): Promise<void> {
  await table.doc.send(new DeleteCommand({ TableName: table.name, Key: key }));
}
