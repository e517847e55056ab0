/**
 * Storing a message together with what it changes on its contact (last message, unread count,
 * message count), in one transaction guarded by the contact's version, retried on a concurrent
 * change. Inbound messages also claim their channel id, which makes redelivery a no-op.
 */
import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { contactFields, contactItem, getContactItem, nextUpdatedAt, type ContactItem } from '#db/contacts.ts';
import { failedConditions } from '#db/conditions.ts';
import { channelMessageGuard, summaryOf, type MessageItem } from '#db/messages.ts';
import { fail } from '../errors.ts';
import type { Ports } from '../ports.ts';

export type RecordOutcome = { stored: true; message: MessageItem; contact: ContactItem } | { stored: false; duplicate: true };

export async function recordMessage(
  ports: Ports,
  message: MessageItem,
  options: { countUnread: boolean; guardChannelId?: string; contact?: ContactItem },
): Promise<RecordOutcome> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const contact = attempt === 0 && options.contact ? options.contact : await getContactItem(ports.table, message.accountId, message.contactId);
    if (!contact) throw fail.notFound();
    const newer = !contact.lastMessageAt || message.timestamp >= contact.lastMessageAt;
    const updatedAt = nextUpdatedAt(ports.clock(), contact.updatedAt);
    const next = contactItem({
      ...contactFields(contact),
      lastMessage: newer ? summaryOf(message) : contact.lastMessage,
      lastMessageAt: newer ? message.timestamp : contact.lastMessageAt,
      unread: options.countUnread ? contact.unread + 1 : contact.unread,
      messagesCount: (contact.messagesCount ?? 0) + 1,
      updatedAt,
    });
    const guard = options.guardChannelId
      ? [
          {
            Put: {
              TableName: ports.table.name,
              Item: channelMessageGuard(message.accountId, message.serviceId, options.guardChannelId, message.contactId, message.id),
              ConditionExpression: 'attribute_not_exists(pk)',
            },
          },
        ]
      : [];
    try {
      await ports.table.doc.send(
        new TransactWriteCommand({
          TransactItems: [
            ...guard,
            { Put: { TableName: ports.table.name, Item: message, ConditionExpression: 'attribute_not_exists(pk)' } },
            {
              Put: {
                TableName: ports.table.name,
                Item: next,
                ConditionExpression: 'updatedAt = :seen',
                ExpressionAttributeValues: { ':seen': contact.updatedAt },
              },
            },
          ],
        }),
      );
      return { stored: true, message, contact: next };
    } catch (error) {
      const failed = failedConditions(error);
      if (!failed) throw error;
      if (guard.length && failed.includes(0)) return { stored: false, duplicate: true };
      // The contact changed meanwhile: read it again and retry.
      await new Promise((r) => setTimeout(r, 5 * (attempt + 1)));
    }
  }
  throw new Error(`Could not record message ${message.id}: the contact kept changing`);
}

