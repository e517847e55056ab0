/**
 * A contact made by hand is checked on its channel right away, not only at its first send
 * (WhatsApp: is the number on WhatsApp, and under which JID; a Brazilian mobile registered before
 * the ninth digit is kept without it). The check runs in the worker that holds the connection's
 * session (`check` on the worker queue); its answer comes back here:
 *
 * - on WhatsApp under other ids than typed: the contact takes them, as after a send
 *   (`keepRecipientIds`), so the person's first message finds this contact and no second one appears;
 * - not on WhatsApp: a system line in the conversation says so before anyone writes in vain (the
 *   first send would fail with the same reason on its bubble);
 * - no answer, or no session held anywhere: nothing; the first send checks again.
 *
 * Never at the cost of the creation: a check that cannot be queued is logged.
 */
import type { ContactItem } from '#db/contacts.ts';
import { getContactItem } from '#db/contacts.ts';
import { messagesPage } from '#db/messages.ts';
import type { ServiceItem } from '#db/services.ts';
import type { ContactCheck } from '../channels/port.ts';
import { changeConversation } from '../conversations/change-conversation.ts';
import { conversationLine } from '../conversations/conversation-lines.ts';
import { keepRecipientIds } from '../messages/dispatch.ts';
import type { Ports } from '../ports.ts';

/** The system line a contact whose number has no WhatsApp gets (pt-BR). */
export const noWhatsAppLine = 'Este número não tem WhatsApp: as mensagens para este contato não serão entregues. Confira o número.';

/** Queues the check of a contact just made by hand, when its channel has one. */
export async function queueContactCheck(ports: Ports, contact: ContactItem, service: ServiceItem): Promise<void> {
  if (!ports.channels.get(service.channelType)?.sessions?.checksContacts) return;
  try {
    await ports.workerQueue.enqueue([
      {
        kind: 'check',
        accountId: contact.accountId,
        serviceId: service.id,
        channelType: service.channelType,
        contactId: contact.id,
        id: contact.idFromService,
      },
    ]);
  } catch (error) {
    console.warn(`[contacts] check of contact ${contact.id} not queued; its first send checks it`, error);
  }
}

/** What the channel answered, applied to the contact (when it still has the id that was checked). */
export async function applyContactCheck(ports: Ports, checked: { accountId: string; contactId: string; id: string }, answer: ContactCheck): Promise<void> {
  const contact = await getContactItem(ports.table, checked.accountId, checked.contactId, true);
  if (!contact || contact.idFromService !== checked.id) return;
  if (answer.kind === 'on' && answer.recipient) await keepRecipientIds(ports, contact, answer.recipient);
  if (answer.kind !== 'absent') return;
  await changeConversation(ports, contact.accountId, contact.id, async (current) => {
    // A check run twice (a redelivered command) writes the line once.
    const newest = await messagesPage(ports.table, current.accountId, current.id, { limit: 20 });
    if (newest.some((message) => message.kind === 'system' && message.text === noWhatsAppLine)) return null;
    return { changes: {}, lines: [conversationLine(ports, current, 'system', noWhatsAppLine, null, ports.clock().getTime())] };
  });
}
