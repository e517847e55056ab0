/**
 * Read receipts when an agent opens a conversation (WhatsApp's blue ticks), so the customer and the
 * business's phone see the messages as read: the newest unread messages of the customer, by their
 * channel ids, queued as a `read` command for the worker that holds the connection's session
 * (ADR-0181). Only channels reached through a worker-held session
 * (`sendsInSession`), or that mark read without one (the Cloud API's `markRead`, called here at
 * once), only when the connection's setting is on (the default), and never at the cost
 * of the open: a failure is logged, and a worker that is away drops the receipts.
 */
import type { ContactItem } from '#db/contacts.ts';
import { messagesPage } from '#db/messages.ts';
import type { ServiceItem } from '#db/services.ts';
import { maxReadReceipts } from '../channels/worker-commands.ts';
import type { Ports } from '../ports.ts';

/** Queues the receipts for the customer's unread messages of `contact` (its state before the open cleared them). */
export async function queueReadReceipts(ports: Ports, contact: ContactItem, service: ServiceItem | undefined): Promise<void> {
  if (!service || service.readReceipts === false || contact.unread <= 0) return;
  const adapter = ports.channels.get(service.channelType);
  // A channel that marks read without a session (the Cloud API) is called from here, at once.
  const direct = adapter?.markRead;
  if (!direct && !adapter?.sessions?.sendsInSession) return;
  try {
    // Our replies, notes and system lines sit between them: a few more than the unread count, one Query.
    const newest = await messagesPage(ports.table, contact.accountId, contact.id, { limit: Math.min(maxReadReceipts, contact.unread + 20) });
    const messages = newest
      .filter((message) => !message.isFromMe && !message.kind && message.channelMessageId)
      .slice(0, Math.min(contact.unread, maxReadReceipts))
      .map((message) => ({ channelMessageId: message.channelMessageId!, author: message.groupContact?.id ?? null }));
    if (!messages.length) return;
    if (direct) {
      const token = service.tokenSealed ? await ports.vault.open(service.tokenSealed) : null;
      await direct({ accountId: contact.accountId, serviceId: service.id, type: service.channelType, token }, { chat: contact.idFromService, messages });
      return;
    }
    await ports.workerQueue.enqueue([
      {
        kind: 'read',
        accountId: contact.accountId,
        serviceId: service.id,
        channelType: service.channelType,
        contactId: contact.id,
        chat: contact.idFromService,
        messages,
      },
    ]);
  } catch (error) {
    console.warn(`[contacts] read receipts of contact ${contact.id} not queued`, error);
  }
}
