/**
 * Lines the team writes into a conversation that are not exchanged with the customer: internal
 * notes and system lines (an assignment or a status change). Both are messages of their own kind,
 * stored with `sendAttempt` 0 and ack 1, so no stream or queue ever hands them to a channel.
 */
import { ack } from '#contracts/messages.ts';
import { messageItem, type MessageItem } from '#db/messages.ts';
import type { ContactItem } from '#db/contacts.ts';
import type { Ports } from '../ports.ts';

export type Actor = { id: string; name: string };

/** The part of a conversation's contact its lines name. */
export type LineContact = Pick<ContactItem, 'accountId' | 'id' | 'serviceId'>;

export function conversationLine(ports: Ports, contact: LineContact, kind: 'note' | 'system', text: string, actor: Actor | null, atMs: number): MessageItem {
  const at = new Date(atMs).toISOString();
  return messageItem({
    id: ports.newId(atMs),
    accountId: contact.accountId,
    contactId: contact.id,
    serviceId: contact.serviceId,
    text,
    messageType: 'text',
    kind,
    timestamp: at,
    isFromMe: true,
    ack: ack.sent,
    error: null,
    file: null,
    quotedMessage: null,
    replyMessageId: null,
    replyToChannelMessageId: null,
    user: actor,
    groupContact: null,
    channelMessageId: null,
    sendAttempt: 0,
    createdAt: at,
    updatedAt: at,
  });
}

/**
 * An automation's message to the customer (docs/conversation-lifecycle.md#automated-messages): a
 * message of ours by nobody, marked with its rule, at ack 0 with a send attempt, so the outbound
 * stream sends it like any other; `choices` are the options a menu or the rating question offers.
 */
export function automatedMessage(ports: Ports, contact: LineContact, text: string, rule: string, atMs: number, choices?: MessageItem['choices']): MessageItem {
  const at = new Date(atMs).toISOString();
  return messageItem({
    id: ports.newId(atMs),
    accountId: contact.accountId,
    contactId: contact.id,
    serviceId: contact.serviceId,
    text,
    messageType: 'text',
    timestamp: at,
    isFromMe: true,
    ack: ack.sending,
    error: null,
    file: null,
    quotedMessage: null,
    replyMessageId: null,
    replyToChannelMessageId: null,
    user: null,
    groupContact: null,
    channelMessageId: null,
    sendAttempt: 1,
    automated: rule,
    ...(choices?.length ? { choices } : {}),
    createdAt: at,
    updatedAt: at,
  });
}
