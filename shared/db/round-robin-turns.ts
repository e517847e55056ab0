/** Round-robin's turn in a department's queue: who was picked last (shared/domain/automations/assign-in-turn.ts). */
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
