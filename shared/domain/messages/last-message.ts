/** Keeps a contact's last-message preview in step when that message changes (ticks, edits, failures). */
import { getContactItem, nextUpdatedAt, writeLastMessage } from '#db/contacts.ts';
import { summaryOf, type MessageItem } from '#db/messages.ts';
import type { Ports } from '../ports.ts';

export async function refreshLastMessage(ports: Ports, message: MessageItem): Promise<void> {
  const contact = await getContactItem(ports.table, message.accountId, message.contactId);
  if (!contact || contact.lastMessage?.id !== message.id) return;
  await writeLastMessage(ports.table, contact, summaryOf(message), nextUpdatedAt(ports.clock(), contact.updatedAt));
}
