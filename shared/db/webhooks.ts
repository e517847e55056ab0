/**
 * Outbound webhook subscriptions and their deliveries (ADR-0233). A delivery is
 * one event for one subscription: the retry queue's entry while it waits (sparse on gsi1 by its
 * due time, read by the minute poller) and the delivery log's line after, gone by TTL 30 days
 * after the event. Attempts are claimed by a conditional write on the attempt count read, so the
 * stream's first attempt and the poller never post the same attempt twice.
 */
import { DeleteCommand, GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { WebhookAttempt, WebhookDeliveryState, WebhookEventType } from '#contracts/webhooks.ts';
import type { Table } from './client.ts';
import { isConditionFailure, unlessConditionFails } from './conditions.ts';
import { entityTypes, keys } from './keys.ts';
import { queryAll } from './users.ts';

export const webhookShards = 4;

/** How long a delivery's line stays in the log. */
export const webhookDeliveryTtlSeconds = 30 * 24 * 3600;

export interface WebhookSubscriptionItem {
  pk: string;
  sk: string;
  type: typeof entityTypes.webhookSubscription;
  id: string;
  accountId: string;
  url: string;
  description: string;
  eventTypes: WebhookEventType[];
  enabled: boolean;
  /** Set when the product switched it off after a day of failures; cleared when an admin enables it. */
  disabledAt: string | null;
  /** The signing secret, sealed with the data key (the Vault port). */
  sealedSecret: string;
  /** After a rotation: the former secret, which signs beside the new one until `previousSecretUntil`. */
  previousSealedSecret?: string | null;
  previousSecretUntil?: string | null;
  consecutiveFailures: number;
  lastSuccessAt: string | null;
  lastFailureAt: string | null;
  createdBy: string;
  createdAt: string;
  updatedAt: string;
}

export function webhookSubscriptionItem(fields: Omit<WebhookSubscriptionItem, 'pk' | 'sk' | 'type'>): WebhookSubscriptionItem {
  return { ...keys.webhookSubscription(fields.accountId, fields.id), type: entityTypes.webhookSubscription, ...fields };
}

export function webhookSubscriptionsOf(table: Table, accountId: string): Promise<WebhookSubscriptionItem[]> {
  const { pk, skPrefix } = keys.accountWebhookSubscriptions(accountId);
  return queryAll<WebhookSubscriptionItem>(table, {
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)',
    ExpressionAttributeValues: { ':pk': pk, ':p': skPrefix },
  });
}

export async function getWebhookSubscription(table: Table, accountId: string, id: string): Promise<WebhookSubscriptionItem | undefined> {
  const { Item } = await table.doc.send(new GetCommand({ TableName: table.name, Key: keys.webhookSubscription(accountId, id), ConsistentRead: true }));
  return Item as WebhookSubscriptionItem | undefined;
}

export async function putNewWebhookSubscription(table: Table, item: WebhookSubscriptionItem): Promise<void> {
  await table.doc.send(new PutCommand({ TableName: table.name, Item: item, ConditionExpression: 'attribute_not_exists(pk)' }));
}

/** Writes the next version while the stored one is still `seenUpdatedAt`; false when it changed or went. */
export async function replaceWebhookSubscription(table: Table, next: WebhookSubscriptionItem, seenUpdatedAt: string): Promise<boolean> {
  const written = await unlessConditionFails(
    table.doc.send(
      new PutCommand({
        TableName: table.name,
        Item: next,
        ConditionExpression: 'updatedAt = :seen',
        ExpressionAttributeValues: { ':seen': seenUpdatedAt },
      }),
    ),
  );
  return written !== undefined;
}

export async function deleteWebhookSubscription(table: Table, accountId: string, id: string): Promise<void> {
  await table.doc.send(new DeleteCommand({ TableName: table.name, Key: keys.webhookSubscription(accountId, id) }));
}

/** A success: the failure count starts over. */
export async function noteWebhookSuccess(table: Table, accountId: string, id: string, at: string): Promise<void> {
  await unlessConditionFails(
    table.doc.send(
      new UpdateCommand({
        TableName: table.name,
        Key: keys.webhookSubscription(accountId, id),
        UpdateExpression: 'SET consecutiveFailures = :zero, lastSuccessAt = :at',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':zero': 0, ':at': at },
      }),
    ),
  );
}

/** A failed attempt: counted; answers the subscription after it (undefined when it is gone). */
export async function noteWebhookFailure(table: Table, accountId: string, id: string, at: string): Promise<WebhookSubscriptionItem | undefined> {
  const answer = await unlessConditionFails(
    table.doc.send(
      new UpdateCommand({
        TableName: table.name,
        Key: keys.webhookSubscription(accountId, id),
        UpdateExpression: 'ADD consecutiveFailures :one SET lastFailureAt = :at',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':one': 1, ':at': at },
        ReturnValues: 'ALL_NEW',
      }),
    ),
  );
  return answer?.Attributes as WebhookSubscriptionItem | undefined;
}

/**
 * Switches a subscription off on the product's own decision, only while it is on and has had no
 * success since `failingSince`; true for the one call that switched it (that one mails the admins).
 */
export async function autoDisableWebhookSubscription(table: Table, accountId: string, id: string, failingSince: string, at: string): Promise<boolean> {
  const answer = await unlessConditionFails(
    table.doc.send(
      new UpdateCommand({
        TableName: table.name,
        Key: keys.webhookSubscription(accountId, id),
        UpdateExpression: 'SET enabled = :off, disabledAt = :at, updatedAt = :at',
        ConditionExpression: 'enabled = :on AND (attribute_not_exists(lastSuccessAt) OR lastSuccessAt = :none OR lastSuccessAt < :since)',
        ExpressionAttributeValues: { ':off': false, ':on': true, ':at': at, ':none': null, ':since': failingSince },
      }),
    ),
  );
  return answer !== undefined;
}

export interface WebhookDeliveryItem {
  pk: string;
  sk: string;
  gsi1pk?: string;
  gsi1sk?: string;
  type: typeof entityTypes.webhookDelivery;
  id: string;
  accountId: string;
  subscriptionId: string;
  eventId: string;
  eventType: WebhookEventType | 'ping';
  /** The exact JSON body every attempt posts (the signature covers it with the attempt's time). */
  body: string;
  state: WebhookDeliveryState;
  attemptCount: number;
  attempts: WebhookAttempt[];
  /** While pending: when the next attempt is due (or, during an attempt, when its claim lapses). */
  nextAttemptAt: string | null;
  createdAt: string;
  ttl: number;
}

/** The shard of a delivery in the due index: a small stable hash of its id. */
function deliveryShard(id: string): number {
  let hash = 0;
  for (let i = 0; i < id.length; i++) hash = (hash * 31 + id.charCodeAt(i)) >>> 0;
  return hash % webhookShards;
}

const dueKeys = (item: Pick<WebhookDeliveryItem, 'id' | 'accountId' | 'subscriptionId'>, dueAt: string) =>
  keys.dueWebhookDelivery(deliveryShard(item.id), dueAt, item.accountId, item.subscriptionId, item.id);

export function webhookDeliveryItem(
  fields: Omit<WebhookDeliveryItem, 'pk' | 'sk' | 'type' | 'gsi1pk' | 'gsi1sk' | 'ttl' | 'attempts' | 'attemptCount' | 'state'>,
): WebhookDeliveryItem {
  return {
    ...keys.webhookDelivery(fields.accountId, fields.subscriptionId, fields.id),
    ...(fields.nextAttemptAt ? dueKeys(fields, fields.nextAttemptAt) : {}),
    type: entityTypes.webhookDelivery,
    ...fields,
    state: 'pending',
    attemptCount: 0,
    attempts: [],
    ttl: Math.floor(Date.parse(fields.createdAt) / 1000) + webhookDeliveryTtlSeconds,
  };
}

/** Stores a new delivery; false when one with its id is there already (the same event again). */
export async function putNewWebhookDelivery(table: Table, item: WebhookDeliveryItem): Promise<boolean> {
  try {
    await table.doc.send(new PutCommand({ TableName: table.name, Item: item, ConditionExpression: 'attribute_not_exists(pk)' }));
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

export async function getWebhookDelivery(table: Table, accountId: string, subscriptionId: string, id: string): Promise<WebhookDeliveryItem | undefined> {
  const { Item } = await table.doc.send(
    new GetCommand({ TableName: table.name, Key: keys.webhookDelivery(accountId, subscriptionId, id), ConsistentRead: true }),
  );
  return Item as WebhookDeliveryItem | undefined;
}

/** A subscription's deliveries, newest first, at most `limit`. */
export async function webhookDeliveriesOf(table: Table, accountId: string, subscriptionId: string, limit: number): Promise<WebhookDeliveryItem[]> {
  const { pk, skPrefix } = keys.webhookDeliveries(accountId, subscriptionId);
  const { Items } = await table.doc.send(
    new QueryCommand({
      TableName: table.name,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)',
      ExpressionAttributeValues: { ':pk': pk, ':p': skPrefix },
      ScanIndexForward: false,
      Limit: limit,
    }),
  );
  return (Items ?? []) as WebhookDeliveryItem[];
}

/**
 * Takes the delivery's next attempt: on condition that it is still pending at the attempt count
 * read and due by `now`, counts the attempt and holds it until `claimUntil` (a run that dies leaves
 * it due again then). False when another run took it, or it is no longer due.
 */
export async function claimWebhookAttempt(
  table: Table,
  item: Pick<WebhookDeliveryItem, 'id' | 'accountId' | 'subscriptionId' | 'attemptCount'>,
  now: string,
  claimUntil: string,
): Promise<boolean> {
  const due = dueKeys(item, claimUntil);
  const answer = await unlessConditionFails(
    table.doc.send(
      new UpdateCommand({
        TableName: table.name,
        Key: keys.webhookDelivery(item.accountId, item.subscriptionId, item.id),
        UpdateExpression: 'SET attemptCount = :next, nextAttemptAt = :until, gsi1pk = :gpk, gsi1sk = :gsk',
        ConditionExpression: '#state = :pending AND attemptCount = :seen AND nextAttemptAt <= :now',
        ExpressionAttributeNames: { '#state': 'state' },
        ExpressionAttributeValues: {
          ':next': item.attemptCount + 1,
          ':until': claimUntil,
          ':gpk': due.gsi1pk,
          ':gsk': due.gsi1sk,
          ':pending': 'pending',
          ':seen': item.attemptCount,
          ':now': now,
        },
      }),
    ),
  );
  return answer !== undefined;
}

/**
 * Records the attempt the caller claimed (the attempt count is its own): the delivery's next due
 * time when it stays pending, or its end (out of the due index).
 */
export async function recordWebhookAttempt(
  table: Table,
  item: Pick<WebhookDeliveryItem, 'id' | 'accountId' | 'subscriptionId'>,
  attempt: WebhookAttempt,
  next: { state: 'pending'; nextAttemptAt: string } | { state: Exclude<WebhookDeliveryState, 'pending'> },
): Promise<void> {
  const key = keys.webhookDelivery(item.accountId, item.subscriptionId, item.id);
  const pending = next.state === 'pending';
  const due = pending ? dueKeys(item, next.nextAttemptAt) : undefined;
  await unlessConditionFails(
    table.doc.send(
      new UpdateCommand({
        TableName: table.name,
        Key: key,
        UpdateExpression: pending
          ? 'SET attempts = list_append(attempts, :attempt), #state = :state, nextAttemptAt = :next, gsi1pk = :gpk, gsi1sk = :gsk'
          : 'SET attempts = list_append(attempts, :attempt), #state = :state, nextAttemptAt = :none REMOVE gsi1pk, gsi1sk',
        ConditionExpression: '#state = :pending AND attemptCount = :count',
        ExpressionAttributeNames: { '#state': 'state' },
        ExpressionAttributeValues: {
          ':attempt': [attempt],
          ':state': next.state,
          ':pending': 'pending',
          ':count': attempt.attempt,
          ...(pending ? { ':next': next.nextAttemptAt, ':gpk': due!.gsi1pk, ':gsk': due!.gsi1sk } : { ':none': null }),
        },
      }),
    ),
  );
}

/** The deliveries of one shard due by `now`, oldest first, at most `limit`. */
export async function dueWebhookDeliveriesOf(table: Table, shard: number, now: string, limit = 100): Promise<WebhookDeliveryItem[]> {
  const { Items } = await table.doc.send(
    new QueryCommand({
      TableName: table.name,
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk AND gsi1sk <= :now',
      ExpressionAttributeValues: { ':pk': keys.dueWebhookDeliveries(shard).gsi1pk, ':now': `${now}~` },
      Limit: limit,
    }),
  );
  return (Items ?? []) as WebhookDeliveryItem[];
}
