/** User items, the per-account e-mail guard, and the e-mail index across accounts. */
import { GetCommand, QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import type { User } from '#contracts/entities.ts';
import type { Table } from './client.ts';
import { entityTypes, keys } from './keys.ts';

export interface UserItem {
  pk: string;
  sk: string;
  gsi1pk: string;
  gsi1sk: string;
  gsi2pk: string;
  gsi2sk: string;
  type: typeof entityTypes.user;
  id: string;
  name: string;
  email: string;
  accountId: string | null;
  passwordHash: string;
  isAdmin: boolean;
  isOwner: boolean;
  emailVerified: boolean;
  avatarUrl: string | null;
  archivedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export type UserFields = Omit<UserItem, 'pk' | 'sk' | 'gsi1pk' | 'gsi1sk' | 'gsi2pk' | 'gsi2sk' | 'type'>;

export function userItem(fields: UserFields): UserItem {
  return {
    ...keys.user(fields.accountId, fields.id),
    ...keys.userByEmail(fields.email, fields.id),
    ...keys.userById(fields.id),
    type: entityTypes.user,
    ...fields,
  };
}

export function userFields(item: UserItem): UserFields {
  const { pk, sk, gsi1pk, gsi1sk, gsi2pk, gsi2sk, type, ...fields } = item;
  void pk; void sk; void gsi1pk; void gsi1sk; void gsi2pk; void gsi2sk; void type;
  return fields;
}

export function toUser(item: UserItem, account: { id: string; name: string } | null): User {
  return {
    id: item.id,
    name: item.name,
    email: item.email,
    accountId: item.accountId,
    account: item.accountId && account ? { id: account.id, name: account.name } : null,
    avatar: item.avatarUrl ? { url: item.avatarUrl } : null,
    isAdmin: item.isAdmin,
    isOwner: item.isOwner,
    emailVerified: item.emailVerified,
    archivedAt: item.archivedAt,
    createdAt: item.createdAt,
    updatedAt: item.updatedAt,
  };
}

export async function getUserItem(table: Table, accountId: string | null, userId: string): Promise<UserItem | undefined> {
  const { Item } = await table.doc.send(new GetCommand({ TableName: table.name, Key: keys.user(accountId, userId) }));
  return Item as UserItem | undefined;
}

export async function queryAll<T>(table: Table, input: Omit<QueryCommandInput, 'TableName'>): Promise<T[]> {
  const items: T[] = [];
  let ExclusiveStartKey: Record<string, unknown> | undefined;
  do {
    const page = await table.doc.send(new QueryCommand({ TableName: table.name, ...input, ExclusiveStartKey }));
    items.push(...((page.Items ?? []) as T[]));
    ExclusiveStartKey = page.LastEvaluatedKey;
  } while (ExclusiveStartKey);
  return items;
}

/** Every user with this e-mail, in any account or none (gsi1). */
export function usersByEmail(table: Table, email: string): Promise<UserItem[]> {
  return queryAll<UserItem>(table, {
    IndexName: 'gsi1',
    KeyConditionExpression: 'gsi1pk = :pk',
    ExpressionAttributeValues: { ':pk': keys.usersByEmail(email).gsi1pk },
  });
}

/** A user by id alone, wherever it lives (gsi2): the public verification calls know only the id. */
export async function findUserById(table: Table, userId: string): Promise<UserItem | undefined> {
  const items = await queryAll<UserItem>(table, {
    IndexName: 'gsi2',
    KeyConditionExpression: 'gsi2pk = :pk',
    ExpressionAttributeValues: { ':pk': keys.userById(userId).gsi2pk },
  });
  return items[0];
}

/** Every user of an account. */
export function accountUsers(table: Table, accountId: string): Promise<UserItem[]> {
  const { pk, skPrefix } = keys.accountUsers(accountId);
  return queryAll<UserItem>(table, {
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': pk, ':prefix': skPrefix },
  });
}

/** Transaction step: claim an e-mail inside an account (fails when another user has it). */
export function claimEmailStep(table: Table, accountId: string, email: string, userId: string) {
  return {
    Put: {
      TableName: table.name,
      Item: { ...keys.userEmail(accountId, email), type: entityTypes.userEmail, userId },
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  };
}

export function releaseEmailStep(table: Table, accountId: string, email: string) {
  return { Delete: { TableName: table.name, Key: keys.userEmail(accountId, email) } };
}
