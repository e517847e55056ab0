/**
 * The outbound side of message items: recording the channel's answer to one send attempt. Both
 * writes are conditional on the message still waiting for that very attempt (ack 0 and the same
 * `sendAttempt`), so an answer is recorded once however often the send is redelivered, and an
 * answer for an attempt that a retry has replaced changes nothing.
 */
import { isDeepStrictEqual } from 'node:util';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ack } from '#contracts/messages.ts';
import type { Table } from './client.ts';
import { isConditionFailure, unlessConditionFails } from './conditions.ts';
import { entityTypes, keys } from './keys.ts';
import { channelMessageGuard, type MessageItem } from './messages.ts';
import { refusedBy, writeTogether } from './transaction.ts';

type Attempt = Pick<MessageItem, 'accountId' | 'contactId' | 'serviceId' | 'id' | 'sendAttempt'>;

/** The update that records an answer, only while the message still waits for this attempt. */
function answer(message: Attempt, set: string, values: Record<string, unknown>, names?: Record<string, string>) {
  return {
    Key: keys.message(message.accountId, message.contactId, message.id),
    UpdateExpression: set,
    ConditionExpression: 'ack = :sending AND sendAttempt = :attempt',
    ...(names ? { ExpressionAttributeNames: names } : {}),
    ExpressionAttributeValues: { ...values, ':sending': ack.sending, ':attempt': message.sendAttempt },
  };
}

/**
 * Ack 1 with the channel's id, and the guard item that lets acks, edits and replies find the
 * message by that id, in one transaction. Answers false when the attempt was answered already.
 */
export async function recordSent(table: Table, message: Attempt, channelMessageId: string, now: string): Promise<boolean> {
  try {
    await writeTogether(table, {
      message: {
        Update: answer(message, 'SET ack = :sent, channelMessageId = :cid, updatedAt = :now, sentAt = :now', {
          ':sent': ack.sent,
          ':cid': channelMessageId,
          ':now': now,
        }),
      },
      guard: { Put: { Item: channelMessageGuard(message.accountId, message.serviceId, channelMessageId, message.contactId, message.id) } },
    });
    return true;
  } catch (error) {
    // Any other cancellation (a conflicting transaction) is thrown, so the send is retried.
    if (refusedBy(error, 'message')) return false;
    throw error;
  }
}

/**
 * Marks the attempt as handed to the channel, right before the call, once per attempt: answers
 * false when it was answered already or another hand-over of it holds the mark. A mark still on a
 * message at ack 0 on a later delivery means the process died between the call and the answer, so
 * the channel may have the message: it is not sent again (see dispatch.ts).
 */
export async function claimHandOver(table: Table, message: Attempt): Promise<boolean> {
  const update = answer(message, 'SET handedOverAttempt = :attempt', {});
  update.ConditionExpression += ' AND (attribute_not_exists(handedOverAttempt) OR handedOverAttempt <> :attempt)';
  return (await unlessConditionFails(table.doc.send(new UpdateCommand({ TableName: table.name, ...update })))) !== undefined;
}

/** Lifts the mark of an attempt the channel did not take (it asked to wait), so a later hand-over may send it. */
export async function releaseHandOver(table: Table, message: Attempt): Promise<void> {
  await unlessConditionFails(table.doc.send(new UpdateCommand({ TableName: table.name, ...answer(message, 'REMOVE handedOverAttempt', {}) })));
}

/** Whether a change of an item only set or lifted the hand-over mark: nothing a browser shows changed. */
export function onlyHandOverMarked(next: Record<string, unknown> | undefined, previous: Record<string, unknown> | undefined): boolean {
  if (!next || !previous || next.type !== entityTypes.message) return false;
  const { handedOverAttempt: _next, ...nextRest } = next;
  const { handedOverAttempt: _previous, ...previousRest } = previous;
  return _next !== _previous && isDeepStrictEqual(nextRest, previousRest);
}

/** Ack -2 with the reason (pt-BR). Answers false when the attempt was answered already. */
export async function recordFailed(table: Table, message: Attempt, reason: string, now: string): Promise<boolean> {
  const update = answer(
    message,
    'SET ack = :failed, #error = :reason, updatedAt = :now',
    { ':failed': ack.error, ':reason': reason, ':now': now },
    { '#error': 'error' },
  );
  try {
    await table.doc.send(new UpdateCommand({ TableName: table.name, ...update }));
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}
