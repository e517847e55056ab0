/**
 * Handing a stored outbound message (ack 0) to its channel and recording the answer: ack 1 with
 * the channel's message id, or ack -2 with the reason. When the channel asks to come back later
 * (Telegram's flood wait), the send is retried after the wait it names, up to a bound.
 */
import { TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ack } from '#contracts/messages.ts';
import { failedConditions, isConditionFailure } from '#db/conditions.ts';
import { getContactItem } from '#db/contacts.ts';
import { keys } from '#db/keys.ts';
import { channelMessageGuard, getMessageItem, type MessageItem } from '#db/messages.ts';
import { getServiceItem } from '#db/services.ts';
import type { Ports } from '../ports.ts';
import { ChannelSendError, type OutboundMessage } from '../channels/port.ts';
import { refreshLastMessage } from './last-message.ts';

export const maxWaitSeconds = 30;
export const maxSendTries = 4;

/** Whether a changed message is one to hand to its channel now. */
export function needsDispatch(next: MessageItem | undefined, previous: MessageItem | undefined): boolean {
  if (next?.type !== 'Message' || !next.isFromMe || next.ack !== ack.sending || !next.sendAttempt) return false;
  return !previous || previous.sendAttempt !== next.sendAttempt;
}

async function markFailed(ports: Ports, message: MessageItem, reason: string): Promise<void> {
  await ports.table.doc
    .send(
      new UpdateCommand({
        TableName: ports.table.name,
        Key: keys.message(message.accountId, message.contactId, message.id),
        UpdateExpression: 'SET ack = :failed, #error = :reason, updatedAt = :now',
        ConditionExpression: 'ack = :sending AND sendAttempt = :attempt',
        ExpressionAttributeNames: { '#error': 'error' },
        ExpressionAttributeValues: { ':failed': ack.error, ':reason': reason, ':now': ports.clock().toISOString(), ':sending': ack.sending, ':attempt': message.sendAttempt },
      }),
    )
    .catch((error) => {
      if (!isConditionFailure(error)) throw error;
    });
  const updated = await getMessageItem(ports.table, message.accountId, message.contactId, message.id);
  if (updated) await refreshLastMessage(ports, updated);
}

async function markSent(ports: Ports, message: MessageItem, channelMessageId: string): Promise<void> {
  try {
    await ports.table.doc.send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Update: {
              TableName: ports.table.name,
              Key: keys.message(message.accountId, message.contactId, message.id),
              UpdateExpression: 'SET ack = :sent, channelMessageId = :cid, updatedAt = :now',
              ConditionExpression: 'ack = :sending AND sendAttempt = :attempt',
              ExpressionAttributeValues: { ':sent': ack.sent, ':cid': channelMessageId, ':now': ports.clock().toISOString(), ':sending': ack.sending, ':attempt': message.sendAttempt },
            },
          },
          {
            Put: {
              TableName: ports.table.name,
              Item: channelMessageGuard(message.accountId, message.serviceId, channelMessageId, message.contactId, message.id),
            },
          },
        ],
      }),
    );
  } catch (error) {
    if (!failedConditions(error)) throw error;
    return;
  }
  const updated = await getMessageItem(ports.table, message.accountId, message.contactId, message.id);
  if (updated) await refreshLastMessage(ports, updated);
}

export async function dispatchMessage(ports: Ports, message: MessageItem): Promise<void> {
  const [service, contact] = await Promise.all([
    getServiceItem(ports.table, message.accountId, message.serviceId),
    getContactItem(ports.table, message.accountId, message.contactId),
  ]);
  if (!service) return markFailed(ports, message, 'A conexão foi removida');
  if (!contact) return markFailed(ports, message, 'O contato foi removido');
  if (service.status !== 'connected') return markFailed(ports, message, 'A conexão está desconectada');
  const channel = ports.channels.get(service.channelType);
  if (!channel) return markFailed(ports, message, 'Este canal ainda não envia mensagens');

  const file = message.file;
  const outbound: OutboundMessage = {
    messageId: message.id,
    to: contact.idFromService,
    type: message.messageType,
    text: message.text,
    file: file
      ? {
          name: file.name,
          mimetype: file.mimetype,
          size: file.size,
          read: () => ports.storage.get(file.objectKey),
          url: await ports.storage.downloadUrl(file.objectKey, file.name),
        }
      : null,
    replyTo: message.replyToChannelMessageId,
  };
  const connection = {
    accountId: message.accountId,
    serviceId: service.id,
    type: service.channelType,
    token: service.tokenSealed ? await ports.vault.open(service.tokenSealed) : null,
  };

  for (let attempt = 1; ; attempt++) {
    try {
      const sent = await channel.send(connection, outbound);
      return markSent(ports, message, sent.channelMessageId);
    } catch (error) {
      if (error instanceof ChannelSendError) {
        const wait = error.options.retryAfterSeconds;
        if (!error.options.permanent && wait !== undefined && wait <= maxWaitSeconds && attempt < maxSendTries) {
          await new Promise((r) => setTimeout(r, wait * 1000));
          continue;
        }
        return markFailed(ports, message, error.reason);
      }
      console.error(`Sending message ${message.id} failed`, error);
      return markFailed(ports, message, 'Falha ao enviar a mensagem. Tente de novo.');
    }
  }
}
