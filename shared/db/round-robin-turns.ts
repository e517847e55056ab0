/**
 * Round-robin's turn in a department's queue (who was picked last), and the account's ledger of
 * its recent assignments (shared/domain/automations/assign-in-turn.ts, ADR-0221).
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { Table } from './client.ts';
import { entityTypes, keys } from './keys.ts';
import { type PutStep, putStep } from './transaction.ts';

export async function lastPickedIn(table: Table, accountId: string, departmentId: string | null): Promise<string | null> {
  const { Item } = await table.doc.send(new GetCommand({ TableName: table.name, Key: keys.roundRobinTurn(accountId, departmentId) }));
  return (Item?.lastPicked as string | undefined) ?? null;
}

/** Transaction member: the queue's turn moves to `userId` with the assignment. */
export function turnStep(accountId: string, departmentId: string | null, userId: string, at: string): PutStep {
  return putStep({ ...keys.roundRobinTurn(accountId, departmentId), type: entityTypes.roundRobinTurn, accountId, lastPicked: userId, at });
}

/** One assignment round-robin made (`at`: epoch ms). */
export interface RecentAssignment {
  contactId: string;
  userId: string;
  at: number;
}

/** The account's round-robin ledger as read: its version (0: none stored yet) and its recent assignments. */
export interface TurnLedger {
  version: number;
  recent: RecentAssignment[];
}

/** The ledger, read strongly: the version a next assignment must find unchanged. */
export async function turnLedger(table: Table, accountId: string): Promise<TurnLedger> {
  const { Item } = await table.doc.send(new GetCommand({ TableName: table.name, Key: keys.roundRobinLedger(accountId), ConsistentRead: true }));
  return { version: (Item?.version as number | undefined) ?? 0, recent: (Item?.recent as RecentAssignment[] | undefined) ?? [] };
}

/**
 * Transaction member: the ledger's next version with `recent`, refused when another assignment
 * moved it since `seen` was read (or, for 0, stored the first one).
 */
export function ledgerStep(accountId: string, seen: number, recent: RecentAssignment[]): PutStep {
  return {
    Put: {
      Item: { ...keys.roundRobinLedger(accountId), type: entityTypes.roundRobinLedger, accountId, version: seen + 1, recent },
      ConditionExpression: seen === 0 ? 'attribute_not_exists(pk)' : 'version = :seen',
      ...(seen === 0 ? {} : { ExpressionAttributeValues: { ':seen': seen } }),
    },
  };
}
