/**
 * Writes that succeed or fail together, with named members. A repository builds each member (a
 * `TransactStep`: put, update, delete or condition check, with its condition); the caller names
 * them, and a refusal says which named conditions failed instead of their positions:
 *
 *   try {
 *     await writeTogether(table, { seat: takeSeat(...), service: putNew(item), bot: claim && claimStep })
 *   } catch (error) {
 *     if (refusedBy(error, 'seat')) throw fail.limit(...);
 *     throw error;
 *   }
 *
 * Members given as `null`, `undefined` or `false` are left out, so optional members read naturally.
 */
import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { Table } from './client.ts';

type Values = Record<string, unknown>;
type Names = Record<string, string>;

type Condition = { ConditionExpression?: string; ExpressionAttributeNames?: Names; ExpressionAttributeValues?: Values };

export type PutStep = { Put: { Item: Record<string, unknown> } & Condition };
export type UpdateStep = { Update: { Key: Record<string, unknown>; UpdateExpression: string } & Condition };
export type DeleteStep = { Delete: { Key: Record<string, unknown> } & Condition };
export type ConditionCheckStep = { ConditionCheck: { Key: Record<string, unknown>; ConditionExpression: string } & Omit<Condition, 'ConditionExpression'> };

/** One member of a transaction, as DynamoDB's document client takes it (without the table name). */
export type TransactStep = PutStep | UpdateStep | DeleteStep | ConditionCheckStep;

export type Steps = Record<string, TransactStep | null | undefined | false>;

/** A transaction that DynamoDB cancelled because named members' conditions did not hold. */
export class TransactionRefused extends Error {
  constructor(readonly refused: ReadonlySet<string>) {
    super(`Transaction refused by ${[...refused].join(', ') || 'no condition (conflict)'}`);
    this.name = 'TransactionRefused';
  }
}

/** Whether an error is a refused transaction, and (with names) whether one of those members refused it. */
export function refusedBy(error: unknown, ...names: string[]): error is TransactionRefused {
  if (!(error instanceof TransactionRefused)) return false;
  return names.length === 0 || names.some((name) => error.refused.has(name));
}

function withTable(table: Table, step: TransactStep) {
  const [kind, body] = Object.entries(step)[0]!;
  return { [kind]: { TableName: table.name, ...body } };
}

/** DynamoDB takes at most this many members in one transaction. */
export const maxTransactionMembers = 100;

/**
 * Runs the named members in one transaction. Throws `TransactionRefused` naming the members whose
 * condition failed (an empty set for a cancellation without a failed condition, such as a
 * conflicting concurrent transaction); any other failure is rethrown as it came.
 */
export async function writeTogether(table: Table, steps: Steps): Promise<void> {
  const named = Object.entries(steps).filter((entry): entry is [string, TransactStep] => Boolean(entry[1]));
  if (!named.length) return;
  try {
    await table.doc.send(new TransactWriteCommand({ TransactItems: named.map(([, step]) => withTable(table, step)) as never }));
  } catch (error) {
    const e = error as { name?: string; CancellationReasons?: { Code?: string }[] };
    if (e?.name !== 'TransactionCanceledException') throw error;
    const refused = new Set((e.CancellationReasons ?? []).flatMap((reason, i) => (reason.Code === 'ConditionalCheckFailed' ? [named[i]![0]] : [])));
    throw new TransactionRefused(refused);
  }
}

/** Puts an item, whatever is stored under its key. */
export function putStep(item: object): PutStep {
  return { Put: { Item: item as Record<string, unknown> } };
}

/** Puts a new item, refused when one with its key exists. */
export function putNewStep(item: object): PutStep {
  return { Put: { Item: item as Record<string, unknown>, ConditionExpression: 'attribute_not_exists(pk)' } };
}

/** Puts an item's next version, refused when the stored one is no longer the version that was read. */
export function replaceIfUnchangedStep<T extends { updatedAt: string }>(next: T, seenUpdatedAt: string): PutStep {
  return {
    Put: {
      Item: next as unknown as Record<string, unknown>,
      ConditionExpression: 'attribute_exists(pk) AND updatedAt = :seen',
      ExpressionAttributeValues: { ':seen': seenUpdatedAt },
    },
  };
}

/** Deletes an item if there is one. */
export function deleteStep(key: Record<string, unknown>): DeleteStep {
  return { Delete: { Key: key } };
}

/** Deletes an existing item, refused when there is none. */
export function deleteExistingStep(key: Record<string, unknown>): DeleteStep {
  return { Delete: { Key: key, ConditionExpression: 'attribute_exists(pk)' } };
}
