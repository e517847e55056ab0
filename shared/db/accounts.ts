/** Account items: the account itself and its usage counters. */
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Account, Subscription, Usage } from '#contracts/entities.ts';
import { effectiveLimits, type PlanLimits } from '#contracts/plans.ts';
import type { Table } from './client.ts';
import { entityTypes, keys } from './keys.ts';

export interface AccountItem {
  pk: string;
  sk: string;
  type: typeof entityTypes.account;
  id: string;
  name: string;
  createdAt: string;
  updatedAt: string;
  plan: PlanLimits | null;
  subscription: Subscription | null;
  usersCount: number;
  servicesCount: number;
  contactsCount: number;
}

export type CounterName = 'usersCount' | 'servicesCount' | 'contactsCount';

export function newAccountItem(id: string, name: string, now: string): AccountItem {
  return {
    ...keys.account(id),
    type: entityTypes.account,
    id,
    name,
    createdAt: now,
    updatedAt: now,
    plan: null,
    subscription: null,
    usersCount: 0,
    servicesCount: 0,
    contactsCount: 0,
  };
}

export function toAccount(item: AccountItem): Account {
  return {
    id: item.id,
    name: item.name,
    createdAt: item.createdAt,
    updatedAt: item.updatedAt,
    plan: effectiveLimits(item.plan),
    subscription: item.subscription ?? null,
  };
}

export function toUsage(item: AccountItem): Usage {
  return { users: item.usersCount ?? 0, connections: item.servicesCount ?? 0, contacts: item.contactsCount ?? 0 };
}

export async function getAccountItem(table: Table, accountId: string): Promise<AccountItem | undefined> {
  const { Item } = await table.doc.send(new GetCommand({ TableName: table.name, Key: keys.account(accountId) }));
  return Item as AccountItem | undefined;
}

export async function renameAccount(table: Table, accountId: string, name: string, now: string): Promise<AccountItem> {
  const { Attributes } = await table.doc.send(
    new UpdateCommand({
      TableName: table.name,
      Key: keys.account(accountId),
      UpdateExpression: 'SET #name = :name, updatedAt = :now',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeNames: { '#name': 'name' },
      ExpressionAttributeValues: { ':name': name, ':now': now },
      ReturnValues: 'ALL_NEW',
    }),
  );
  return Attributes as AccountItem;
}

/** The transaction step that takes one unit of a counter, refused when the limit is reached. */
export function takeCounterStep(table: Table, accountId: string, counter: CounterName, limit: number) {
  return {
    Update: {
      TableName: table.name,
      Key: keys.account(accountId),
      UpdateExpression: 'SET #c = if_not_exists(#c, :zero) + :one',
      ConditionExpression: 'attribute_exists(pk) AND (attribute_not_exists(#c) OR #c < :limit)',
      ExpressionAttributeNames: { '#c': counter },
      ExpressionAttributeValues: { ':zero': 0, ':one': 1, ':limit': limit },
    },
  };
}

/** The transaction step that gives one unit of a counter back. */
export function releaseCounterStep(table: Table, accountId: string, counter: CounterName) {
  return {
    Update: {
      TableName: table.name,
      Key: keys.account(accountId),
      UpdateExpression: 'SET #c = #c - :one',
      ConditionExpression: 'attribute_exists(pk) AND #c > :zero',
      ExpressionAttributeNames: { '#c': counter },
      ExpressionAttributeValues: { ':zero': 0, ':one': 1 },
    },
  };
}
