/** Message items and the channel-id guard that makes inbound messages idempotent. */
import { GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ack, type MessageSummary, type MessageType } from '#contracts/messages.ts';
import type { TemplateSendSpec } from '#contracts/template-fill.ts';
import type { Table } from './client.ts';
import { unlessConditionFails } from './conditions.ts';
import { entityTypes, keys } from './keys.ts';
import { queryAll } from './users.ts';
import { putNewStep, type DeleteStep, type PutStep } from './transaction.ts';

export interface StoredFile {
  id: string;
  name: string;
  mimetype: string;
  size: number;
  objectKey: string;
}

export interface MessageItem {
  pk: string;
  sk: string;
  type: typeof entityTypes.message;
  id: string;
  accountId: string;
  contactId: string;
  serviceId: string;
  text: string;
  messageType: MessageType;
  timestamp: string;
  isFromMe: boolean;
  ack: number;
  error: string | null;
  file: StoredFile | null;
  /** The message was stored before its file, which is still being fetched from the channel (`attachInboundFile`). */
  filePending?: boolean;
  quotedMessage: MessageSummary | null;
  replyMessageId: string | null;
  /** The quoted message's id on the channel, for replies sent out. */
  replyToChannelMessageId: string | null;
  user: { id: string; name: string } | null;
  groupContact: { id: string; name: string } | null;
  channelMessageId: string | null;
  /** Increases with every hand-over to the channel (first send and retries). */
  sendAttempt: number;
  /**
   * The attempt last handed to the channel (set right before the call; see `claimHandOver` in
   * outbound-messages.ts). Equal to `sendAttempt` while the message is still at ack 0: that
   * hand-over never got its answer recorded (the process died during the call).
   */
  handedOverAttempt?: number;
  /** Why this attempt (`waitingAttempt`) waits in the worker for a daily cap, in pt-BR (connectors/send-caps.ts). */
  waiting?: string;
  waitingAttempt?: number;
  /** A team note or a system line (docs/product.md#team-inbox); absent on messages exchanged with the customer. Never sent to a channel. */
  kind?: 'note' | 'system';
  /** Reactions on the channel, one per reactor (their channel id). */
  reactions?: Reactions;
  /** A message template sent instead of free text (the Cloud API); `text` is the template rendered with these values, `file` its media header. */
  template?: TemplateSendSpec;
  /** The automation's rule that sent it (docs/conversation-lifecycle.md#automated-messages): never a person's answer. */
  automated?: string;
  /** The options a menu or the rating question offers, sent as buttons or a list where the channel has them. */
  choices?: { key: string; label: string }[];
  /** Sent under `user`'s name: the channel gets the text signed (signature.ts), every attempt alike; `text` stays as typed. */
  signed?: true;
  /** Forwarded from another conversation (forward-message.ts). */
  forwarded?: true;
  /** When the channel took it (its answer recorded at ack 1); later acks leave it. */
  sentAt?: string;
  /** Sent by a campaign (shared/domain/campaigns/feed-lane.ts): its acks count on its recipient (sort key) and the campaign's lane. */
  campaign?: { id: string; recipient: string };
  createdAt: string;
  updatedAt: string;
}

/** Reactions of a message by reactor id. */
export type Reactions = Record<string, { emoji: string; fromMe: boolean; at: string }>;

export function summaryOf(item: MessageItem): MessageSummary {
  return {
    id: item.id,
    text: item.text,
    type: item.messageType,
    isFromMe: item.isFromMe,
    ack: item.ack,
    timestamp: item.timestamp,
    file: item.file ? { name: item.file.name, mimetype: item.file.mimetype } : null,
  };
}

export type MessageFields = Omit<MessageItem, 'pk' | 'sk' | 'type'>;

export function messageItem(fields: MessageFields): MessageItem {
  return { ...keys.message(fields.accountId, fields.contactId, fields.id), type: entityTypes.message, ...fields };
}

export async function getMessageItem(table: Table, accountId: string, contactId: string, messageId: string): Promise<MessageItem | undefined> {
  const { Item } = await table.doc.send(new GetCommand({ TableName: table.name, Key: keys.message(accountId, contactId, messageId), ConsistentRead: true }));
  return Item as MessageItem | undefined;
}

/** The message a channel id points to, through the guard item. */
export async function messageByChannelId(table: Table, accountId: string, serviceId: string, channelMessageId: string): Promise<MessageItem | undefined> {
  const { Item } = await table.doc.send(
    new GetCommand({ TableName: table.name, Key: keys.channelMessage(accountId, serviceId, channelMessageId), ConsistentRead: true }),
  );
  if (!Item) return undefined;
  return getMessageItem(table, accountId, Item.contactId as string, Item.messageId as string);
}

export function channelMessageGuard(accountId: string, serviceId: string, channelMessageId: string, contactId: string, messageId: string) {
  return { ...keys.channelMessage(accountId, serviceId, channelMessageId), type: entityTypes.channelMessage, contactId, messageId };
}

/** Transaction member: claims a channel message id for a message, refused when it is already stored (a redelivery). */
export function claimChannelMessageStep(message: Pick<MessageItem, 'accountId' | 'serviceId' | 'contactId' | 'id'>, channelMessageId: string): PutStep {
  return putNewStep(channelMessageGuard(message.accountId, message.serviceId, channelMessageId, message.contactId, message.id));
}

/**
 * Puts a failed message of ours back to 'sending' with a new send attempt (the stream hands it to
 * the channel again). Answers the updated message, or undefined when there is no such message or
 * it is not a failed one of ours.
 */
export async function retryFailedMessage(
  table: Table,
  message: Pick<MessageItem, 'accountId' | 'contactId' | 'id'>,
  now: string,
): Promise<MessageItem | undefined> {
  const answer = await unlessConditionFails(
    table.doc.send(
      new UpdateCommand({
        TableName: table.name,
        Key: keys.message(message.accountId, message.contactId, message.id),
        UpdateExpression: 'SET ack = :sending, #error = :null, sendAttempt = sendAttempt + :one, updatedAt = :now',
        ConditionExpression: 'attribute_exists(pk) AND isFromMe = :yes AND ack = :failed',
        ExpressionAttributeNames: { '#error': 'error' },
        ExpressionAttributeValues: { ':sending': ack.sending, ':failed': ack.error, ':null': null, ':one': 1, ':yes': true, ':now': now },
        ReturnValues: 'ALL_NEW',
      }),
    ),
  );
  return answer?.Attributes as MessageItem | undefined;
}

/** A page of a contact's messages, newest first, optionally before a message id. */
export async function messagesPage(
  table: Table,
  accountId: string,
  contactId: string,
  options: { limit: number; beforeId?: string; skip?: number },
): Promise<MessageItem[]> {
  const { pk, skPrefix } = keys.contactMessages(accountId, contactId);
  const wanted = options.limit + (options.skip ?? 0);
  const items: MessageItem[] = [];
  let ExclusiveStartKey: Record<string, unknown> | undefined;
  do {
    const page = await table.doc.send(
      new QueryCommand({
        TableName: table.name,
        // The partition holds only this contact's messages, so "before a message" is a plain `<`.
        KeyConditionExpression: options.beforeId ? 'pk = :pk AND sk < :before' : 'pk = :pk AND begins_with(sk, :p)',
        ExpressionAttributeValues: options.beforeId
          ? { ':pk': pk, ':before': keys.message(accountId, contactId, options.beforeId).sk }
          : { ':pk': pk, ':p': skPrefix },
        ScanIndexForward: false,
        Limit: Math.min(wanted - items.length, 1000),
        ExclusiveStartKey,
      }),
    );
    items.push(...((page.Items ?? []) as MessageItem[]));
    ExclusiveStartKey = page.LastEvaluatedKey;
  } while (ExclusiveStartKey && items.length < wanted);
  return items.slice(options.skip ?? 0, wanted);
}

/** Whether a message with this channel id is stored (its guard item exists). */
export async function channelMessageExists(table: Table, accountId: string, serviceId: string, channelMessageId: string): Promise<boolean> {
  const { Item } = await table.doc.send(
    new GetCommand({
      TableName: table.name,
      Key: keys.channelMessage(accountId, serviceId, channelMessageId),
      ConsistentRead: true,
      ProjectionExpression: 'pk',
    }),
  );
  return Boolean(Item);
}

/**
 * Sets a message's ack when it is still the one that was read (and, for an error the channel gave a
 * reason for, the reason); answers the message written, or undefined.
 */
export async function moveAck(table: Table, message: MessageItem, next: number, now: string, reason?: string): Promise<MessageItem | undefined> {
  const answer = await unlessConditionFails(
    table.doc.send(
      new UpdateCommand({
        TableName: table.name,
        Key: keys.message(message.accountId, message.contactId, message.id),
        UpdateExpression: reason ? 'SET ack = :next, updatedAt = :now, #error = :reason' : 'SET ack = :next, updatedAt = :now',
        ConditionExpression: 'ack = :seen',
        ...(reason ? { ExpressionAttributeNames: { '#error': 'error' } } : {}),
        ExpressionAttributeValues: { ':next': next, ':seen': message.ack, ':now': now, ...(reason ? { ':reason': reason } : {}) },
        ReturnValues: 'ALL_NEW',
      }),
    ),
  );
  return answer?.Attributes as MessageItem | undefined;
}

/** Replaces a message's text after an edit on the channel. */
export async function editMessageText(table: Table, message: MessageItem, text: string, now: string, edited = true): Promise<MessageItem> {
  const { Attributes } = await table.doc.send(
    new UpdateCommand({
      TableName: table.name,
      Key: keys.message(message.accountId, message.contactId, message.id),
      // Not edited: the channel changed what the message shows (a poll's tally); an earlier edit's mark stays.
      UpdateExpression: edited ? 'SET #text = :text, edited = :yes, updatedAt = :now' : 'SET #text = :text, updatedAt = :now',
      ExpressionAttributeNames: { '#text': 'text' },
      ExpressionAttributeValues: { ':text': text, ':now': now, ...(edited ? { ':yes': true } : {}) },
      ReturnValues: 'ALL_NEW',
    }),
  );
  return Attributes as MessageItem;
}

/** Writes a message's reactions when it is still the version that was read; answers the message written, or undefined. */
export async function writeReactions(table: Table, message: MessageItem, reactions: Reactions, now: string): Promise<MessageItem | undefined> {
  const answer = await unlessConditionFails(
    table.doc.send(
      new UpdateCommand({
        TableName: table.name,
        Key: keys.message(message.accountId, message.contactId, message.id),
        UpdateExpression: 'SET reactions = :reactions, updatedAt = :now',
        ConditionExpression: 'updatedAt = :seen',
        ExpressionAttributeValues: { ':reactions': reactions, ':now': now, ':seen': message.updatedAt },
        ReturnValues: 'ALL_NEW',
      }),
    ),
  );
  return answer?.Attributes as MessageItem | undefined;
}

/** Every message of a contact, oldest first (merging a contact into another moves them all). */
export function allMessagesOf(table: Table, accountId: string, contactId: string): Promise<MessageItem[]> {
  const { pk, skPrefix } = keys.contactMessages(accountId, contactId);
  return queryAll<MessageItem>(table, {
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)',
    ExpressionAttributeValues: { ':pk': pk, ':p': skPrefix },
    ConsistentRead: true,
  });
}

/**
 * Transaction members that move a message into another contact's conversation, keeping its id
 * (so its place in time and the replies that name it): the copy, its channel-id guard pointed at
 * the copy, and the original's deletion, refused when the original changed since it was read.
 */
export function moveMessageSteps(message: MessageItem, contactId: string, now: string): { copy: PutStep; guard: PutStep | null; original: DeleteStep } {
  const { pk, sk, type, ...fields } = message;
  void pk;
  void sk;
  void type;
  const copy = messageItem({ ...fields, contactId, updatedAt: now });
  return {
    copy: putNewStep(copy),
    guard: message.channelMessageId
      ? { Put: { Item: channelMessageGuard(message.accountId, message.serviceId, message.channelMessageId, contactId, message.id) } }
      : null,
    original: {
      Delete: {
        Key: keys.message(message.accountId, message.contactId, message.id),
        ConditionExpression: 'updatedAt = :seen',
        ExpressionAttributeValues: { ':seen': message.updatedAt },
      },
    },
  };
}

/** Gives a message stored before its file (`filePending`) the file, or the text saying why there is none; undefined when it no longer waits. */
export async function attachFile(
  table: Table,
  message: MessageItem,
  fields: Pick<MessageItem, 'file' | 'text' | 'messageType'>,
  now: string,
): Promise<MessageItem | undefined> {
  const answer = await unlessConditionFails(
    table.doc.send(
      new UpdateCommand({
        TableName: table.name,
        Key: keys.message(message.accountId, message.contactId, message.id),
        UpdateExpression: 'SET #file = :file, #text = :text, messageType = :type, updatedAt = :now REMOVE filePending',
        ConditionExpression: 'filePending = :yes',
        ExpressionAttributeNames: { '#file': 'file', '#text': 'text' },
        ExpressionAttributeValues: { ':file': fields.file, ':text': fields.text, ':type': fields.messageType, ':now': now, ':yes': true },
        ReturnValues: 'ALL_NEW',
      }),
    ),
  );
  return answer?.Attributes as MessageItem | undefined;
}
