/**
 * One-time codes (e-mail verification, password reset): hashed, expiring, with an attempt budget.
 * A verification code belongs to a user (its subject is the user id), a reset code to an e-mail;
 * either is bound to the address it was sent to, which it alone proves.
 */
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Table } from './client.ts';
import { unlessConditionFails } from './conditions.ts';
import { entityTypes, keys, type Key } from './keys.ts';
import type { DeleteStep } from './transaction.ts';

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
  /** The address the code was sent to: the only one it proves (its hash covers it too). */
  address: string;
}

function codeKey(purpose: CodePurpose, subject: string): Key {
  return purpose === 'verify' ? keys.verifyCode(subject) : keys.resetCode(subject);
}

/** Stores a fresh code for a subject, replacing any earlier one. */
export async function putCode(table: Table, purpose: CodePurpose, code: Pick<CodeItem, 'codeHash' | 'expiresAt' | 'subject' | 'address'>): Promise<void> {
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

/**
 * Takes one of the code's attempts before it is compared, so parallel guesses get no more
 * comparisons than the budget: answers false when the code is gone or its attempts are spent.
 */
export async function takeAttempt(table: Table, purpose: CodePurpose, subject: string, maxAttempts: number): Promise<boolean> {
  const answer = await unlessConditionFails(
    table.doc.send(
      new UpdateCommand({
        TableName: table.name,
        Key: codeKey(purpose, subject),
        UpdateExpression: 'ADD attempts :one',
        ConditionExpression: 'attribute_exists(pk) AND attempts < :max',
        ExpressionAttributeValues: { ':one': 1, ':max': maxAttempts },
      }),
    ),
  );
  return answer !== undefined;
}

/**
 * Transaction member: uses up the code that was checked (by its hash), refused when it was used
 * or replaced meanwhile, so of concurrent uses of one code exactly one succeeds.
 */
export function spendCodeStep(purpose: CodePurpose, subject: string, codeHash: string): DeleteStep {
  return { Delete: { Key: codeKey(purpose, subject), ConditionExpression: 'codeHash = :hash', ExpressionAttributeValues: { ':hash': codeHash } } };
}
