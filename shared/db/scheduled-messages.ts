/**
 * Scheduled messages as items (docs/product.md#scheduled-messages, ADR-0224):
 * one item a schedule in its contact's message partition (the contact's purge takes it along),
 * carrying while it waits a sparse gsi1 entry by its next due time, spread over `timerShards`
 * partitions as the lifecycle's timers are, and read by the same minute poller, and a sparse gsi2
 * entry in its account's partition of waiting schedules (read when the account's zone changes,
 * ADR-0237). Every write after
 * the first is on condition of the `version` read, so an edit, a cancel and a firing never
 * overwrite one another, and a firing is stored at most once per occurrence.
 */
import { GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { ScheduledMessageStatus, ScheduleRepeat } from '#contracts/scheduled-messages.ts';
import type { Table } from './client.ts';
import { timerShard, timerShards } from './conversation-timers.ts';
import { entityTypes, keys } from './keys.ts';
import { queryAll } from './users.ts';
import type { PutStep } from './transaction.ts';

export { timerShards as scheduleShards };

export interface ScheduledMessageItem {
  pk: string;
  sk: string;
  /** Only while `status` is scheduled. */
  gsi1pk?: string;
  gsi1sk?: string;
  /** Only while `status` is scheduled. */
  gsi2pk?: string;
  gsi2sk?: string;
  type: typeof entityTypes.scheduledMessage;
  id: string;
  accountId: string;
  contactId: string;
  serviceId: string;
  text: string;
  file: { id: string; name: string; mimetype: string } | null;
  repeat: ScheduleRepeat;
  /** The first occurrence on the zone's wall clock. */
  anchorDate: string;
  minutes: number;
  timeZone: string;
  /** Which occurrence (from the anchor) is next. */
  index: number;
  /** Occurrences sent so far; the next one's message id is derived from (id, sentCount + 1). */
  sentCount: number;
  status: ScheduledMessageStatus;
  nextAt: string | null;
  /** Moved by every write; each write after the first is on condition of the one read. */
  version: number;
  user: { id: string; name: string };
  lastMessageId: string | null;
  createdAt: string;
  updatedAt: string;
}

export type ScheduledMessageFields = Omit<ScheduledMessageItem, 'pk' | 'sk' | 'gsi1pk' | 'gsi1sk' | 'gsi2pk' | 'gsi2sk' | 'type'>;

/** The item for its fields: keyed, and on the due index and the account's index while it waits. */
export function scheduledMessageItem(fields: ScheduledMessageFields): ScheduledMessageItem {
  const waiting = fields.status === 'scheduled' && fields.nextAt;
  const due = waiting ? keys.dueScheduledMessage(timerShard(fields.contactId), fields.nextAt!, fields.accountId, fields.contactId, fields.id) : {};
  const ofAccount = waiting ? keys.accountScheduledMessage(fields.accountId, fields.contactId, fields.id) : {};
  return { ...keys.scheduledMessage(fields.accountId, fields.contactId, fields.id), ...due, ...ofAccount, type: entityTypes.scheduledMessage, ...fields };
}

/** The stored fields of a schedule, without its keys (rebuilt by `scheduledMessageItem`). */
export function scheduledMessageFields(item: ScheduledMessageItem): ScheduledMessageFields {
  const { pk: _pk, sk: _sk, gsi1pk: _g1, gsi1sk: _g2, gsi2pk: _g3, gsi2sk: _g4, type: _type, ...fields } = item;
  return fields;
}

export async function getScheduledMessage(table: Table, accountId: string, contactId: string, id: string): Promise<ScheduledMessageItem | undefined> {
  const { Item } = await table.doc.send(new GetCommand({ TableName: table.name, Key: keys.scheduledMessage(accountId, contactId, id), ConsistentRead: true }));
  return Item as ScheduledMessageItem | undefined;
}

/** A contact's scheduled messages, every status (a contact has a handful). */
export async function contactScheduledMessages(table: Table, accountId: string, contactId: string): Promise<ScheduledMessageItem[]> {
  const { pk, skPrefix } = keys.contactScheduledMessages(accountId, contactId);
  return queryAll<ScheduledMessageItem>(table, {
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)',
    ExpressionAttributeValues: { ':pk': pk, ':p': skPrefix },
    ConsistentRead: true,
  });
}

/** Stores a new schedule. */
export async function putNewScheduledMessage(table: Table, item: ScheduledMessageItem): Promise<void> {
  await table.doc.send(new PutCommand({ TableName: table.name, Item: item, ConditionExpression: 'attribute_not_exists(pk)' }));
}

/** Transaction member (or a write alone): the schedule's next version, refused unless the stored one is still `seenVersion`. */
export function replaceScheduleStep(next: ScheduledMessageItem, seenVersion: number): PutStep {
  return {
    Put: {
      Item: next as unknown as Record<string, unknown>,
      ConditionExpression: 'attribute_exists(pk) AND #version = :seen',
      ExpressionAttributeNames: { '#version': 'version' },
      ExpressionAttributeValues: { ':seen': seenVersion },
    },
  };
}

/** Writes the schedule's next version alone; false when it changed since it was read. */
export async function replaceScheduledMessage(table: Table, next: ScheduledMessageItem, seenVersion: number): Promise<boolean> {
  try {
    await table.doc.send(new PutCommand({ TableName: table.name, ...replaceScheduleStep(next, seenVersion).Put }));
    return true;
  } catch (error) {
    if ((error as { name?: string }).name === 'ConditionalCheckFailedException') return false;
    throw error;
  }
}

/** The schedules of one shard due by `now`, oldest first, at most `limit`. */
export async function dueScheduledMessagesOf(table: Table, shard: number, now: string, limit = 100): Promise<ScheduledMessageItem[]> {
  const { Items } = await table.doc.send(
    new QueryCommand({
      TableName: table.name,
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk AND gsi1sk <= :now',
      ExpressionAttributeValues: { ':pk': keys.dueScheduledMessages(shard).gsi1pk, ':now': `${now}~` },
      Limit: limit,
    }),
  );
  return (Items ?? []) as ScheduledMessageItem[];
}

/**
 * The account's waiting schedules as its index holds them (eventually consistent: re-read one
 * before writing it), a page at a time.
 */
export async function* accountWaitingScheduledMessages(table: Table, accountId: string): AsyncGenerator<ScheduledMessageItem[]> {
  let ExclusiveStartKey: Record<string, unknown> | undefined;
  do {
    const page = await table.doc.send(
      new QueryCommand({
        TableName: table.name,
        IndexName: 'gsi2',
        KeyConditionExpression: 'gsi2pk = :pk',
        ExpressionAttributeValues: { ':pk': keys.accountScheduledMessages(accountId).gsi2pk },
        ExclusiveStartKey,
      }),
    );
    yield (page.Items ?? []) as ScheduledMessageItem[];
    ExclusiveStartKey = page.LastEvaluatedKey;
  } while (ExclusiveStartKey);
}
