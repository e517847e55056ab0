/**
 * Storing a message together with what it changes on its contact (last message, unread count,
 * message count), in one transaction guarded by the contact's version, retried on a concurrent
 * change. Inbound messages also claim their channel id, which makes redelivery a no-op.
 */
import { contactFields, contactItem, getContactItem, nextUpdatedAt, type ContactFields, type ContactItem } from '#db/contacts.ts';
import { claimChannelMessageStep, summaryOf, type MessageItem } from '#db/messages.ts';
import { putNewStep, refusedBy, replaceIfUnchangedStep, type Steps, writeTogether } from '#db/transaction.ts';
import { fail } from '../errors.ts';
import type { Ports } from '../ports.ts';

export type RecordOutcome = { stored: true; message: MessageItem; contact: ContactItem } | { stored: false; duplicate: true };

export async function recordMessage(
  ports: Ports,
  message: MessageItem,
  options: {
    countUnread: boolean;
    guardChannelId?: string;
    contact?: ContactItem;
    /**
     * What else the message changes on its contact, with the lines recording it (a resolved
     * conversation reopening, the lifecycle's automated answers) and other members of the
     * transaction (the lifecycle's timers).
     */
    also?: (contact: ContactItem) => { changes: Partial<ContactFields>; lines: MessageItem[]; steps?: Steps } | null;
    /**
     * Members whose refusal means the message must not be stored at all (a scheduled message's
     * occurrence already taken): answered as a duplicate, never retried.
     */
    guards?: Steps;
  },
): Promise<RecordOutcome> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const contact = attempt === 0 && options.contact ? options.contact : await getContactItem(ports.table, message.accountId, message.contactId);
    if (!contact) throw fail.notFound();
    const newer = !contact.lastMessageAt || message.timestamp >= contact.lastMessageAt;
    const updatedAt = nextUpdatedAt(ports.clock(), contact.updatedAt);
    const also: { changes: Partial<ContactFields>; lines: MessageItem[]; steps?: Steps } = options.also?.(contact) ?? { changes: {}, lines: [] };
    const next = contactItem({
      ...contactFields(contact),
      ...also.changes,
      lastMessage: newer ? summaryOf(message) : contact.lastMessage,
      lastMessageAt: newer ? message.timestamp : contact.lastMessageAt,
      unread: options.countUnread ? contact.unread + 1 : contact.unread,
      messagesCount: (contact.messagesCount ?? 0) + 1 + also.lines.length,
      updatedAt,
    });
    try {
      await writeTogether(ports.table, {
        ...also.steps,
        ...options.guards,
        channelId: options.guardChannelId ? claimChannelMessageStep(message, options.guardChannelId) : null,
        message: putNewStep(message),
        contact: replaceIfUnchangedStep(next, contact.updatedAt),
        ...Object.fromEntries(also.lines.map((line, i) => [`line${i}`, putNewStep(line)])),
      });
      return { stored: true, message, contact: next };
    } catch (error) {
      if (!refusedBy(error)) throw error;
      if (refusedBy(error, 'channelId', ...Object.keys(options.guards ?? {}))) return { stored: false, duplicate: true };
      // The contact changed meanwhile: read it again and retry.
      await new Promise((r) => setTimeout(r, 5 * (attempt + 1)));
    }
  }
  throw new Error(`Could not record message ${message.id}: the contact kept changing`);
}
