/**
 * Daily caps on a connection's sends, against bans (beside the pace of `send-pace.ts`): at most
 * `dailySends` messages a day from one number, and at most `dailyNewChats` of them opening a chat
 * (the first message to a person who never wrote to us and whom we never reached). A send over a
 * cap is not failed: it waits in its connection's queue group, its message stays at ack 0 with a
 * pt-BR text saying why (`waiting`), and it goes on the next day. The counts live in the table, one
 * record per connection and day (`keys.sendDay`), so a restart or another worker taking the lease
 * over counts on from them. The day is Brazil's (UTC−3; no daylight saving time since 2019).
 *
 * The cap on new chats holds only the sends that open a chat: such a send (`hold`) leaves its
 * connection's queue group for its conversation's own (`held` on the worker command) and waits
 * there, so replies to chats already open keep going. A later send of a conversation that has a
 * held one is held too, behind it, so a conversation's messages never overtake each other.
 *
 * Only one worker holds a connection, and the worker runs one send of a connection at a time
 * (whichever group it comes from), so checking before a send and counting after it cannot race
 * with another send of the same number.
 */
import { GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ack, sendWaitTexts } from '#contracts/messages.ts';
import type { Table } from '#db/client.ts';
import { isConditionFailure } from '#db/conditions.ts';
import { getContactItem } from '#db/contacts.ts';
import { entityTypes, keys } from '#db/keys.ts';
import { getMessageItem, type MessageItem } from '#db/messages.ts';
import type { DispatchRequest } from '#domain/messages/outbound-queue.ts';
import type { Ports } from '#domain/ports.ts';

export interface SendCapOptions {
  /** Messages one number may send a day. */
  dailySends: number;
  /** Chats one number may open a day (first messages to people who never wrote and were never reached). */
  dailyNewChats: number;
  /** The longest a waiting send stays out of sight before it is looked at again (SQS allows 12 h). @default 3 h */
  maxWaitSeconds?: number;
  /** @default Date.now */
  now?: () => number;
}

/** See ADR-0179: a day's worth of an SMB inbox's replies, and few cold chats. */
export const defaultSendCaps: SendCapOptions = { dailySends: 1000, dailyNewChats: 50 };

/** The caps from the worker's environment (`WHATSAPP_DAILY_SEND_CAP`, `WHATSAPP_DAILY_NEW_CHAT_CAP`); problems are named. */
export function sendCapsFromEnv(env: Record<string, string | undefined>, problems: string[]): SendCapOptions {
  const read = (name: string, fallback: number) => {
    const text = env[name];
    if (text === undefined || text === '') return fallback;
    const value = Number(text);
    if (Number.isInteger(value) && value >= 1) return value;
    problems.push(`${name} must be a whole number of at least 1, not "${text}"`);
    return fallback;
  };
  return {
    dailySends: read('WHATSAPP_DAILY_SEND_CAP', defaultSendCaps.dailySends),
    dailyNewChats: read('WHATSAPP_DAILY_NEW_CHAT_CAP', defaultSendCaps.dailyNewChats),
  };
}

const brazilOffsetMs = 3 * 3600 * 1000;
const dayMs = 24 * 3600 * 1000;

/** The Brazilian day of a moment, `YYYY-MM-DD`. */
export function brazilDay(ms: number): string {
  return new Date(ms - brazilOffsetMs).toISOString().slice(0, 10);
}

/** Milliseconds from `ms` to the next Brazilian midnight. */
export function untilNextBrazilDay(ms: number): number {
  const local = ms - brazilOffsetMs;
  return (Math.floor(local / dayMs) + 1) * dayMs - local;
}

interface SendDay {
  sends?: number;
  newChats?: Set<string>;
}

/**
 * What the gate decided: wait (the group waits `seconds`), hold (the send waits `seconds` in its
 * conversation's own group, not its connection's), or go (`newChat`: the send opens a chat, to be counted).
 */
export type CapVerdict = { kind: 'wait'; seconds: number } | { kind: 'hold'; seconds: number } | { kind: 'go'; newChat: boolean; waited: boolean };

export interface SendCaps {
  /** Before a send: whether it must wait for a cap; a waiting message gets the text, a released one loses it. */
  gate(request: DispatchRequest): Promise<CapVerdict>;
  /** After a send the channel took: counts it (and the chat it opened). */
  sent(request: DispatchRequest, newChat: boolean): Promise<void>;
}

export function sendCaps(ports: Ports, options: SendCapOptions): SendCaps {
  const { table } = ports;
  const now = options.now ?? Date.now;
  const maxWaitSeconds = options.maxWaitSeconds ?? 3 * 3600;

  const readDay = async (request: DispatchRequest, day: string): Promise<SendDay> => {
    const { Item } = await table.doc.send(
      new GetCommand({ TableName: table.name, Key: keys.sendDay(request.accountId, request.serviceId, day), ConsistentRead: true }),
    );
    return (Item ?? {}) as SendDay;
  };

  return {
    async gate(request) {
      const message = await getMessageItem(table, request.accountId, request.contactId, request.messageId);
      // Nothing to send (answered, replaced by a retry, deleted): dispatch skips it.
      if (!message || message.ack !== ack.sending || message.sendAttempt !== request.sendAttempt || message.kind)
        return { kind: 'go', newChat: false, waited: false };
      const at = now();
      const counts = await readDay(request, brazilDay(at));
      const waited = message.waiting != null && message.waitingAttempt === message.sendAttempt;
      const seconds = Math.max(1, Math.min(maxWaitSeconds, Math.ceil(untilNextBrazilDay(at) / 1000)));
      const waitWith = async (text: string) => {
        if (message.waiting !== text || !waited) await markWaiting(table, message, text);
      };
      if ((counts.sends ?? 0) >= options.dailySends) {
        await waitWith(sendWaitTexts.dailySends);
        return { kind: 'wait', seconds };
      }
      const newChat = !counts.newChats?.has(message.contactId) && (await opensChat(ports, message));
      if (newChat && (counts.newChats?.size ?? 0) >= options.dailyNewChats) {
        await waitWith(sendWaitTexts.dailyNewChats);
        return { kind: 'hold', seconds };
      }
      if (await heldBefore(table, message)) {
        await waitWith(sendWaitTexts.earlierMessage);
        return { kind: 'hold', seconds };
      }
      if (waited) await markWaiting(table, message, null);
      return { kind: 'go', newChat, waited };
    },

    async sent(request, newChat) {
      const at = now();
      await table.doc.send(
        new UpdateCommand({
          TableName: table.name,
          Key: keys.sendDay(request.accountId, request.serviceId, brazilDay(at)),
          UpdateExpression: `SET #type = :type, #ttl = :ttl ADD sends :one${newChat ? ', newChats :chat' : ''}`,
          ExpressionAttributeNames: { '#type': 'type', '#ttl': 'ttl' },
          ExpressionAttributeValues: {
            ':type': entityTypes.sendDay,
            ':ttl': Math.floor(at / 1000) + 3 * 24 * 3600,
            ':one': 1,
            ...(newChat ? { ':chat': new Set([request.contactId]) } : {}),
          },
        }),
      );
    },
  };
}

/**
 * Whether a message opens its chat: a person (not a group) who never wrote to us and to whom none
 * of our messages was ever taken by the channel. Read from the conversation's oldest messages (the
 * customer's first message or our first sent one is among them whenever the chat is not new); a
 * conversation whose first ten are all ours and unsent counts as new.
 */
async function opensChat(ports: Ports, message: MessageItem): Promise<boolean> {
  const contact = await getContactItem(ports.table, message.accountId, message.contactId);
  if (!contact || contact.contactType === 'group') return false;
  const { pk, skPrefix } = keys.contactMessages(message.accountId, message.contactId);
  const { Items = [] } = await ports.table.doc.send(
    new QueryCommand({
      TableName: ports.table.name,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)',
      ExpressionAttributeValues: { ':pk': pk, ':p': skPrefix },
      ScanIndexForward: true,
      Limit: 10,
    }),
  );
  return !(Items as MessageItem[]).some((m) => !m.kind && (!m.isFromMe || Boolean(m.channelMessageId)));
}

/** How far back in a conversation a send looks for an earlier one held by the cap on new chats. */
const heldLookBack = 50;

/**
 * Whether an earlier send of the message's conversation is held by the cap on new chats (still at
 * ack 0 with a holding text on its current attempt): then this one waits behind it. Read from the
 * conversation's newest messages before this one.
 */
async function heldBefore(table: Table, message: MessageItem): Promise<boolean> {
  const { pk, sk } = keys.message(message.accountId, message.contactId, message.id);
  const { skPrefix } = keys.contactMessages(message.accountId, message.contactId);
  const { Items = [] } = await table.doc.send(
    new QueryCommand({
      TableName: table.name,
      // This message and the ones before it (its own id is skipped below): ids sort by time.
      KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
      ExpressionAttributeValues: { ':pk': pk, ':from': skPrefix, ':to': sk },
      ScanIndexForward: false,
      Limit: heldLookBack,
      ConsistentRead: true,
    }),
  );
  const holding: string[] = [sendWaitTexts.dailyNewChats, sendWaitTexts.earlierMessage];
  return (Items as MessageItem[]).some(
    (m) =>
      m.id !== message.id &&
      m.isFromMe &&
      !m.kind &&
      m.ack === ack.sending &&
      m.waiting != null &&
      holding.includes(m.waiting) &&
      m.waitingAttempt === m.sendAttempt,
  );
}

/** Sets (or clears, `text` null) the waiting text of the message's attempt; nothing when the attempt was answered meanwhile. */
async function markWaiting(table: Table, message: MessageItem, text: string | null): Promise<void> {
  try {
    await table.doc.send(
      new UpdateCommand({
        TableName: table.name,
        Key: keys.message(message.accountId, message.contactId, message.id),
        UpdateExpression: text ? 'SET waiting = :text, waitingAttempt = :attempt, updatedAt = :now' : 'REMOVE waiting, waitingAttempt SET updatedAt = :now',
        ConditionExpression: 'ack = :sending AND sendAttempt = :attempt',
        ExpressionAttributeValues: {
          ':sending': ack.sending,
          ':attempt': message.sendAttempt,
          ':now': new Date().toISOString(),
          ...(text ? { ':text': text } : {}),
        },
      }),
    );
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
  }
}
