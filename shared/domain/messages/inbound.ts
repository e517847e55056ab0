/**
 * What channels report: messages (stored once per channel id, creating the contact when unknown),
 * acks (which only move forward, except to deleted or error) and edits.
 */
import { PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ack as acks, nextAck } from '#contracts/messages.ts';
import type { InboundAck, InboundEdit, InboundMessage } from '#connectors/channel.ts';
import { isConditionFailure } from '#db/conditions.ts';
import { contactIdByChannel, getContactItem, nextUpdatedAt } from '#db/contacts.ts';
import type { FileItem } from '#db/files.ts';
import { entityTypes, keys } from '#db/keys.ts';
import { messageByChannelId, summaryOf, type MessageItem } from '#db/messages.ts';
import { messageTypeOf } from '#contracts/files.ts';
import type { Ports } from '../ports.ts';
import { insertContact } from '../contacts/contacts.ts';
import { recordMessage } from './record-message.ts';

async function contactFor(ports: Ports, input: InboundMessage): Promise<string> {
  const known = await contactIdByChannel(ports.table, input.accountId, input.serviceId, input.chat.idFromService);
  if (known) return known;
  try {
    const item = await insertContact(ports, {
      accountId: input.accountId,
      serviceId: input.serviceId,
      name: input.chat.name || input.chat.phoneNumber || input.chat.idFromService,
      contactType: input.chat.isGroup ? 'group' : 'user',
      idFromService: input.chat.idFromService,
      email: null,
      phoneNumber: input.chat.phoneNumber ?? null,
      phoneCountry: null,
      gender: null,
      avatarKey: input.chat.avatarObjectKey ?? null,
    });
    return item.id;
  } catch (error) {
    // Two messages of a new contact at once: the other one created it.
    const again = await contactIdByChannel(ports.table, input.accountId, input.serviceId, input.chat.idFromService);
    if (again) return again;
    throw error;
  }
}

/** Stores an inbound message; a redelivered one (same channel id) changes nothing. Answers the message, or null for a repeat. */
export async function receiveMessage(ports: Ports, input: InboundMessage): Promise<MessageItem | null> {
  if (await messageByChannelId(ports.table, input.accountId, input.serviceId, input.channelMessageId)) return null;
  const contactId = await contactFor(ports, input);
  const quoted = input.replyToChannelMessageId
    ? await messageByChannelId(ports.table, input.accountId, input.serviceId, input.replyToChannelMessageId)
    : undefined;
  const now = ports.clock().toISOString();
  const id = ports.newId(Date.parse(input.timestamp) || undefined);
  let file: MessageItem['file'] = null;
  if (input.file) {
    const fileId = ports.newId();
    const record: FileItem = {
      ...keys.file(input.accountId, fileId),
      type: entityTypes.file,
      id: fileId,
      accountId: input.accountId,
      serviceId: input.serviceId,
      name: input.file.name,
      mimetype: input.file.mimetype,
      size: input.file.size,
      messageType: input.type,
      isPtt: input.type === 'voice',
      objectKey: input.file.objectKey,
      createdAt: now,
    };
    await ports.table.doc.send(new PutCommand({ TableName: ports.table.name, Item: record }));
    file = { id: fileId, name: record.name, mimetype: record.mimetype, size: record.size, objectKey: record.objectKey };
  }
  const message: MessageItem = {
    ...keys.message(input.accountId, contactId, id),
    type: entityTypes.message,
    id,
    accountId: input.accountId,
    contactId,
    serviceId: input.serviceId,
    text: input.text,
    messageType: input.file ? (messageTypeOf(input.file.mimetype, input.type === 'voice') ?? input.type) : input.type,
    timestamp: new Date(Date.parse(input.timestamp) || Date.now()).toISOString(),
    isFromMe: input.isFromMe,
    ack: input.isFromMe ? acks.sent : acks.delivered,
    error: null,
    file,
    quotedMessage: quoted ? summaryOf(quoted) : null,
    replyMessageId: quoted?.id ?? null,
    replyToChannelMessageId: input.replyToChannelMessageId ?? null,
    user: null,
    groupContact: input.chat.isGroup && input.author ? { id: input.author.idFromService, name: input.author.name } : null,
    channelMessageId: input.channelMessageId,
    sendAttempt: 0,
    createdAt: now,
    updatedAt: now,
  };
  const outcome = await recordMessage(ports, message, { countUnread: !input.isFromMe, guardChannelId: input.channelMessageId });
  return outcome.stored ? outcome.message : null;
}

/** Moves a message's ack as the channel reports; never backwards except to deleted or error. */
export async function receiveAck(ports: Ports, input: InboundAck): Promise<MessageItem | null> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const message = await messageByChannelId(ports.table, input.accountId, input.serviceId, input.channelMessageId);
    if (!message) return null;
    const next = nextAck(message.ack, input.ack);
    if (next === message.ack) return message;
    try {
      const { Attributes } = await ports.table.doc.send(
        new UpdateCommand({
          TableName: ports.table.name,
          Key: keys.message(message.accountId, message.contactId, message.id),
          UpdateExpression: 'SET ack = :next, updatedAt = :now',
          ConditionExpression: 'ack = :seen',
          ExpressionAttributeValues: { ':next': next, ':seen': message.ack, ':now': ports.clock().toISOString() },
          ReturnValues: 'ALL_NEW',
        }),
      );
      const updated = Attributes as MessageItem;
      await refreshLastMessage(ports, updated);
      return updated;
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
    }
  }
  return null;
}

/** A message edited on the channel: the new text replaces the old. */
export async function receiveEdit(ports: Ports, input: InboundEdit): Promise<MessageItem | null> {
  const message = await messageByChannelId(ports.table, input.accountId, input.serviceId, input.channelMessageId);
  if (!message || message.text === input.text) return message ?? null;
  const { Attributes } = await ports.table.doc.send(
    new UpdateCommand({
      TableName: ports.table.name,
      Key: keys.message(message.accountId, message.contactId, message.id),
      UpdateExpression: 'SET #text = :text, edited = :yes, updatedAt = :now',
      ExpressionAttributeNames: { '#text': 'text' },
      ExpressionAttributeValues: { ':text': input.text, ':yes': true, ':now': ports.clock().toISOString() },
      ReturnValues: 'ALL_NEW',
    }),
  );
  const updated = Attributes as MessageItem;
  await refreshLastMessage(ports, updated);
  return updated;
}

/** Keeps the contact's last-message preview in step when that message changes (ticks, edits). */
export async function refreshLastMessage(ports: Ports, message: MessageItem): Promise<void> {
  const contact = await getContactItem(ports.table, message.accountId, message.contactId);
  if (!contact || contact.lastMessage?.id !== message.id) return;
  const updatedAt = nextUpdatedAt(ports.clock(), contact.updatedAt);
  await ports.table.doc
    .send(
      new UpdateCommand({
        TableName: ports.table.name,
        Key: keys.contact(contact.accountId, contact.id),
        UpdateExpression: 'SET lastMessage = :summary, updatedAt = :now, gsi2sk = :sk',
        ConditionExpression: 'updatedAt = :seen',
        ExpressionAttributeValues: {
          ':summary': summaryOf(message),
          ':now': updatedAt,
          ':sk': keys.contactChange(contact.accountId, updatedAt, contact.id).gsi2sk,
          ':seen': contact.updatedAt,
        },
      }),
    )
    .catch((error) => {
      // A newer change won the race; it carries its own last message.
      if (!isConditionFailure(error)) throw error;
    });
}

