/** Account items: the account itself and its usage counters (plan seats). */
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { unlessConditionFails } from './conditions.ts';
import type { Subscription } from '#contracts/entities.ts';
import type { PlanLimits } from '#contracts/plans.ts';
import type { Table } from './client.ts';
import { entityTypes, keys } from './keys.ts';
import type { PutStep, UpdateStep } from './transaction.ts';

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
  /** The account's customer at the payment provider, set once (first checkout). */
  stripeCustomerId?: string | null;
  /** The subscription the plan and `subscription` were last taken from, and its creation (epoch s). */
  stripeSubscriptionId?: string | null;
  stripeSubscriptionCreated?: number | null;
  /** When the provider was read for the state written here (ISO); older reads never overwrite it. */
  billingSyncedAt?: string | null;
  /** The team inbox's account setting (docs/product.md#team-inbox); absent: members see only theirs and their departments'. */
  inboxSettings?: { membersSeeAll: boolean };
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

/**
 * Transaction member: moves a seat counter by `seats`: taking them (`limit` given) is refused
 * unless all fit under the plan's limit; giving them back is refused when fewer are taken.
 */
function seatsStep(accountId: string, counter: CounterName, seats: number, limit?: number): UpdateStep {
  const taking = limit !== undefined;
  return {
    Update: {
      Key: keys.account(accountId),
      UpdateExpression: taking ? 'SET #c = if_not_exists(#c, :zero) + :n' : 'SET #c = #c - :n',
      ConditionExpression: taking ? 'attribute_exists(pk) AND (attribute_not_exists(#c) OR #c <= :max)' : 'attribute_exists(pk) AND #c >= :n',
      ExpressionAttributeNames: { '#c': counter },
      ExpressionAttributeValues: taking ? { ':zero': 0, ':n': seats, ':max': limit - seats } : { ':n': seats },
    },
  };
}

/** Transaction member: takes one seat of a counter, refused when the plan's limit is reached. */
export const takeSeatStep = (accountId: string, counter: CounterName, limit: number) => seatsStep(accountId, counter, 1, limit);

/** Transaction member: gives one seat of a counter back (refused when the counter is already 0). */
export const releaseSeatStep = (accountId: string, counter: CounterName) => seatsStep(accountId, counter, 1);

/** Transaction member: takes `count` seats at once (the plan-limit consumer bringing items back), refused unless all fit. */
export const takeSeatsStep = (accountId: string, counter: CounterName, count: number, limit: number) => seatsStep(accountId, counter, count, limit);

/** Transaction member: gives `count` seats back at once, refused when fewer are taken. */
export const releaseSeatsStep = (accountId: string, counter: CounterName, count: number) => seatsStep(accountId, counter, count);

/**
 * Transaction members that remember an account's payment customer: on the account (only if it has
 * none yet) and in the customer's own item, which webhooks use to find the account.
 */
export function setBillingCustomerSteps(accountId: string, customerId: string): { account: UpdateStep; customer: PutStep } {
  return {
    account: {
      Update: {
        Key: keys.account(accountId),
        UpdateExpression: 'SET stripeCustomerId = :customer',
        ConditionExpression: 'attribute_exists(pk) AND (attribute_not_exists(stripeCustomerId) OR stripeCustomerId = :null)',
        ExpressionAttributeValues: { ':customer': customerId, ':null': null },
      },
    },
    customer: { Put: { Item: { ...keys.billingCustomer(customerId), type: entityTypes.billingCustomer, accountId, customerId } } },
  };
}

export async function accountOfBillingCustomer(table: Table, customerId: string): Promise<string | null> {
  const { Item } = await table.doc.send(new GetCommand({ TableName: table.name, Key: keys.billingCustomer(customerId) }));
  return (Item?.accountId as string | undefined) ?? null;
}

export interface BillingState {
  plan: PlanLimits | null;
  subscription: Subscription | null;
  subscriptionId: string;
  subscriptionCreated: number;
  /** When the provider was read (ISO). */
  syncedAt: string;
  now: string;
}

/**
 * Writes the plan and subscription read from the provider, unless a newer read was written
 * already. Answers the account as written, or undefined when it was not (older read, no account).
 */
export async function writeBillingState(table: Table, accountId: string, state: BillingState): Promise<AccountItem | undefined> {
  const answer = await unlessConditionFails(
    table.doc.send(
      new UpdateCommand({
        TableName: table.name,
        Key: keys.account(accountId),
        UpdateExpression:
          'SET #plan = :plan, subscription = :subscription, stripeSubscriptionId = :sub, stripeSubscriptionCreated = :created, billingSyncedAt = :at, updatedAt = :now',
        ConditionExpression: 'attribute_exists(pk) AND (attribute_not_exists(billingSyncedAt) OR billingSyncedAt = :null OR billingSyncedAt <= :at)',
        ExpressionAttributeNames: { '#plan': 'plan' },
        ExpressionAttributeValues: {
          ':plan': state.plan,
          ':subscription': state.subscription,
          ':sub': state.subscriptionId,
          ':created': state.subscriptionCreated,
          ':at': state.syncedAt,
          ':now': state.now,
          ':null': null,
        },
        ReturnValues: 'ALL_NEW',
      }),
    ),
  );
  return answer?.Attributes as AccountItem | undefined;
}

/** Writes the account's inbox setting (docs/product.md#team-inbox) alone. */
export async function writeInboxSettings(table: Table, accountId: string, settings: { membersSeeAll: boolean }, now: string): Promise<AccountItem> {
  const { Attributes } = await table.doc.send(
    new UpdateCommand({
      TableName: table.name,
      Key: keys.account(accountId),
      UpdateExpression: 'SET inboxSettings = :settings, updatedAt = :now',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: { ':settings': settings, ':now': now },
      ReturnValues: 'ALL_NEW',
    }),
  );
  return Attributes as AccountItem;
}
