/**
 * A conversation's lifecycle timers (docs/conversation-lifecycle.md#timers) and ratings as items.
 * A timer is armed and cancelled by transaction members written with the conversation's state, so
 * the two never disagree; the minute poller reads the due ones through gsi1, spread over
 * `timerShards` partitions by the contact id.
 */
import { DeleteCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { unlessConditionFails } from './conditions.ts';
import type { Table } from './client.ts';
import { queryAll } from './users.ts';
import { entityTypes, type Key, keys } from './keys.ts';
import { deleteStep, type DeleteStep, putStep, type PutStep } from './transaction.ts';

export const timerShards = 8;

export interface TimerItem {
  pk: string;
  sk: string;
  gsi1pk: string;
  gsi1sk: string;
  type: typeof entityTypes.conversationTimer;
  accountId: string;
  contactId: string;
  name: string;
  version: number;
  dueAt: string;
}

/** The shard of a contact's timers: a small stable hash of its id. */
export function timerShard(contactId: string): number {
  let hash = 0;
  for (let i = 0; i < contactId.length; i++) hash = (hash * 31 + contactId.charCodeAt(i)) >>> 0;
  return hash % timerShards;
}

export function timerItem(at: { accountId: string; contactId: string; name: string; version: number; dueAt: number }): TimerItem {
  const dueAt = new Date(at.dueAt).toISOString();
  return {
    ...keys.conversationTimer(at.accountId, at.contactId, at.name),
    ...keys.dueTimer(timerShard(at.contactId), dueAt, at.accountId, at.contactId, at.name),
    type: entityTypes.conversationTimer,
    accountId: at.accountId,
    contactId: at.contactId,
    name: at.name,
    version: at.version,
    dueAt,
  };
}

/** Arms (or re-arms) a timer outside a move: a timer kept by no state (round-robin's retry). */
export async function armTimer(table: Table, item: TimerItem): Promise<void> {
  await table.doc.send(new PutCommand({ TableName: table.name, Item: item }));
}

/** Transaction member: arms (or re-arms, replacing) a timer. */
export const armTimerStep = (item: TimerItem): PutStep => putStep(item);

/** Transaction member: takes a timer away, whatever version it holds (the state it belongs to is written in the same transaction). */
export const cancelTimerStep = (accountId: string, contactId: string, name: string): DeleteStep =>
  deleteStep(keys.conversationTimer(accountId, contactId, name));

/** Transaction member: takes a fired timer away, only while it is still the version that fired. */
export function firedTimerStep(timer: Pick<TimerItem, 'accountId' | 'contactId' | 'name' | 'version'>): DeleteStep {
  return {
    Delete: {
      Key: keys.conversationTimer(timer.accountId, timer.contactId, timer.name),
      ConditionExpression: '#version = :version',
      ExpressionAttributeNames: { '#version': 'version' },
      ExpressionAttributeValues: { ':version': timer.version },
    },
  };
}

/** Takes a timer away outside any move, only while it is still the version read (a newer arming stays). */
export async function dropTimer(table: Table, timer: Pick<TimerItem, 'accountId' | 'contactId' | 'name' | 'version'>): Promise<void> {
  const { Delete } = firedTimerStep(timer);
  await unlessConditionFails(table.doc.send(new DeleteCommand({ TableName: table.name, ...Delete })));
}

/** The timers of one shard due by `now`, oldest first, at most `limit`. */
export async function dueTimersOf(table: Table, shard: number, now: string, limit = 100): Promise<TimerItem[]> {
  const { Items } = await table.doc.send(
    new QueryCommand({
      TableName: table.name,
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk AND gsi1sk <= :now',
      ExpressionAttributeValues: { ':pk': keys.dueTimers(shard).gsi1pk, ':now': `${now}~` },
      Limit: limit,
    }),
  );
  return (Items ?? []) as TimerItem[];
}

export interface RatingItem {
  pk: string;
  sk: string;
  type: typeof entityTypes.conversationRating;
  accountId: string;
  contactId: string;
  serviceId: string;
  protocol: string;
  score: number;
  /** Given after the conversation had moved on (a new one began, or from an old question). */
  late: boolean;
  userId: string | null;
  departmentId: string | null;
  ratedAt: string;
}

export function ratingStep(rating: Omit<RatingItem, 'pk' | 'sk' | 'type'>): PutStep {
  return putStep({ ...keys.conversationRating(rating.accountId, rating.protocol), type: entityTypes.conversationRating, ...rating });
}

export type ConversationEventKind = 'started' | 'first_response' | 'resolved' | 'rated';

export interface ConversationEventItem {
  pk: string;
  sk: string;
  type: typeof entityTypes.conversationEvent;
  accountId: string;
  contactId: string;
  serviceId: string;
  protocol: string;
  kind: ConversationEventKind;
  at: string;
  userId: string | null;
  departmentId: string | null;
  /** first_response: from the start to the first answer of a person. */
  waitMs?: number;
  /** resolved: from the start to the resolution. */
  handledMs?: number;
  /** resolved: by a person of the team, or by the inactivity rule. */
  by?: 'team' | 'inactivity';
  /** rated: the customer's score (1-5), with the agent and department the rating names. */
  score?: number;
}

export function conversationEventStep(event: Omit<ConversationEventItem, 'pk' | 'sk' | 'type'>): PutStep {
  return putStep({ ...keys.conversationEvent(event.accountId, event.at, event.contactId, event.kind), type: entityTypes.conversationEvent, ...event });
}

/**
 * The keys of a contact's conversation events in one month's partition, at most `limit`: the
 * partition is the account's, so this reads the month's events and keeps the contact's. For a deleted contact's purge (LGPD), a few times a
 * month at most.
 */
export function contactConversationEventKeys(table: Table, accountId: string, month: string, contactId: string, limit: number): Promise<Key[]> {
  return queryAll<Key>(
    table,
    {
      KeyConditionExpression: 'pk = :pk',
      // A filter may not name a key attribute: the item's own contactId.
      FilterExpression: 'contactId = :contact',
      ExpressionAttributeValues: { ':pk': keys.conversationEventsOf(accountId, month).pk, ':contact': contactId },
      ProjectionExpression: 'pk, sk',
      ConsistentRead: true,
    },
    limit,
  );
}
