/** One-time codes (e-mail verification, password reset): hashed, expiring, with an attempt budget. */
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Table } from './client.ts';
import { entityTypes, type Key } from './keys.ts';

export interface CodeItem {
  pk: string;
  sk: string;
  type: typeof entityTypes.code;
  codeHash: string;
  attempts: number;
  expiresAt: number;
  ttl: number;
  /** What the code is about: the user for verification, the e-mail for reset. */
  subject: string;
}

export async function putCode(table: Table, key: Key, code: Omit<CodeItem, 'pk' | 'sk' | 'type' | 'ttl' | 'attempts'>): Promise<void> {
  await table.doc.send(
    new PutCommand({
      TableName: table.name,
      Item: { ...key, type: entityTypes.code, attempts: 0, ttl: code.expiresAt, ...code },
    }),
  );
}

export async function getCode(table: Table, key: Key): Promise<CodeItem | undefined> {
  const { Item } = await table.doc.send(new GetCommand({ TableName: table.name, Key: key, ConsistentRead: true }));
  return Item as CodeItem | undefined;
}

/** Counts one wrong attempt; answers the attempts made so far. */
export async function countAttempt(table: Table, key: Key): Promise<number> {
  const { Attributes } = await table.doc.send(
    new UpdateCommand({
      TableName: table.name,
      Key: key,
      UpdateExpression: 'ADD attempts :one',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: { ':one': 1 },
      ReturnValues: 'UPDATED_NEW',
    }),
  ).catch(() => ({ Attributes: { attempts: Infinity } }));
  return Number(Attributes?.attempts ?? Infinity);
}

export async function deleteCode(table: Table, key: Key): Promise<void> {
  await table.doc.send(new DeleteCommand({ TableName: table.name, Key: key }));
}
