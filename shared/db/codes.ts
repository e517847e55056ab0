/**
 * One-time codes (e-mail verification, password reset): hashed, expiring, with an attempt budget.
 * A verification code belongs to a user (its subject is the user id), a reset code to an e-mail.
 */
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Table } from './client.ts';
import { entityTypes, keys, type Key } from './keys.ts';

export type CodePurpose = 'verify' | 'reset';

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

function codeKey(purpose: CodePurpose, subject: string): Key {
  return purpose === 'verify' ? keys.verifyCode(subject) : keys.resetCode(subject);
}

/** Stores a fresh code for a subject, replacing any earlier one. */
export async function putCode(table: Table, purpose: CodePurpose, code: Pick<CodeItem, 'codeHash' | 'expiresAt' | 'subject'>): Promise<void> {
  await table.doc.send(
    new PutCommand({
      TableName: table.name,
      Item: { ...codeKey(purpose, code.subject), type: entityTypes.code, attempts: 0, ttl: code.expiresAt, ...code },
    }),
  );
}

export async function getCode(table: Table, purpose: CodePurpose, subject: string): Promise<CodeItem | undefined> {
  const { Item } = await table.doc.send(new GetCommand({ TableName: table.name, Key: codeKey(purpose, subject), ConsistentRead: true }));
  return Item as CodeItem | undefined;
}

/** Counts one wrong attempt; answers the attempts made so far. */
export async function countAttempt(table: Table, purpose: CodePurpose, subject: string): Promise<number> {
  const { Attributes } = await table.doc
    .send(
      new UpdateCommand({
        TableName: table.name,
        Key: codeKey(purpose, subject),
        UpdateExpression: 'ADD attempts :one',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':one': 1 },
        ReturnValues: 'UPDATED_NEW',
      }),
    )
    .catch(() => ({ Attributes: { attempts: Infinity } }));
  return Number(Attributes?.attempts ?? Infinity);
}

export async function deleteCode(table: Table, purpose: CodePurpose, subject: string): Promise<void> {
  await table.doc.send(new DeleteCommand({ TableName: table.name, Key: codeKey(purpose, subject) }));
}
