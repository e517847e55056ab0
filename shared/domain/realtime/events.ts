/**
 * Realtime events (docs/product.md#entities-and-states): every changed item of a kind the browser lists becomes
 * `<kind>.CREATED` or `<kind>.UPDATED` with the item as the API answers it, addressed to the
 * item's account. The events are typed by the shared contract (`shared/contracts/realtime.ts`), which
 * the browser parses them with; nothing is parsed here. See docs/realtime.md.
 */
import type { Account } from '#contracts/entities.ts';
import type { RealtimeEvent } from '#contracts/realtime.ts';
import { getAccountItem, type AccountItem } from '#db/accounts.ts';
import type { ContactItem } from '#db/contacts.ts';
import type { MessageItem } from '#db/messages.ts';
import type { MessageTemplateItem } from '#db/message-templates.ts';
import type { ScheduledMessageItem } from '#db/scheduled-messages.ts';
import { getServiceItem, type ServiceItem } from '#db/services.ts';
import { toService } from '../services/present-service.ts';
import type { UserItem } from '#db/users.ts';
import { entityTypes } from '#db/keys.ts';
import { toAccount } from '../accounts/present-account.ts';
import { presentContact } from '../contacts/present-contact.ts';
import { toMessage } from '../messages/present-message.ts';
import { toScheduledMessage } from '../scheduled-messages/present-scheduled-message.ts';
import { toTemplate } from '../templates/templates.ts';
import { toUser } from '../users/present-user.ts';
import type { Ports } from '../ports.ts';
import { assignmentOf, type EventConversation } from './audience.ts';

export interface AddressedEvent {
  accountId: string;
  payload: RealtimeEvent;
  /** A conversation's event (contact.*, message.*): only those who see it receive it (audience.ts). Absent: the whole account. */
  conversation?: EventConversation;
}

type Item = Record<string, unknown> & { type?: string };

/**
 * The account a change's event would go to, known before the event is built (which may read items
 * first); undefined when the change makes no event.
 */
export function eventAccountOf(change: 'INSERT' | 'MODIFY' | 'REMOVE', item: Item | undefined): string | undefined {
  if (!item || change === 'REMOVE') return undefined;
  switch (item.type) {
    case entityTypes.account:
      return item.id as string;
    case entityTypes.user:
    case entityTypes.service:
    case entityTypes.contact:
    case entityTypes.message:
    case entityTypes.messageTemplate:
    case entityTypes.scheduledMessage:
      return (item.accountId as string | undefined) || undefined;
    default:
      return undefined;
  }
}

/**
 * The event for one change, or null when the change is not one browsers follow. `previous` (the old
 * image of a MODIFY) tells who saw a contact before the change.
 */
export async function realtimeEventFor(
  ports: Ports,
  change: 'INSERT' | 'MODIFY' | 'REMOVE',
  item: Item | undefined,
  previous?: Item,
): Promise<AddressedEvent | null> {
  if (!item || change === 'REMOVE') return null;
  const verb = change === 'INSERT' ? 'CREATED' : 'UPDATED';
  switch (item.type) {
    case entityTypes.account: {
      const account = item as unknown as AccountItem;
      const data: Account = toAccount(account);
      return { accountId: account.id, payload: { event: `account.${verb}`, data } };
    }
    case entityTypes.user: {
      const user = item as unknown as UserItem;
      if (!user.accountId) return null;
      const account = await getAccountItem(ports.table, user.accountId);
      return { accountId: user.accountId, payload: { event: `user.${verb}`, data: toUser(user, account ?? null) } };
    }
    case entityTypes.service: {
      const service = item as unknown as ServiceItem;
      return { accountId: service.accountId, payload: { event: `service.${verb}`, data: toService(service) } };
    }
    case entityTypes.contact: {
      const contact = item as unknown as ContactItem;
      const service = await getServiceItem(ports.table, contact.accountId, contact.serviceId);
      const before = previous?.type === entityTypes.contact ? assignmentOf(previous as unknown as ContactItem) : undefined;
      return {
        accountId: contact.accountId,
        payload: { event: `contact.${verb}`, data: await presentContact(contact, service, ports.storage.downloadUrl) },
        conversation: { contactId: contact.id, assignments: [assignmentOf(contact), ...(before ? [before] : [])] },
      };
    }
    case entityTypes.message: {
      const message = item as unknown as MessageItem;
      return {
        accountId: message.accountId,
        payload: { event: `message.${verb}`, data: await toMessage(message, ports.storage.downloadUrl) },
        conversation: { contactId: message.contactId },
      };
    }
    case entityTypes.messageTemplate: {
      const template = item as unknown as MessageTemplateItem;
      return { accountId: template.accountId, payload: { event: `template.${verb}`, data: toTemplate(template) } };
    }
    case entityTypes.scheduledMessage: {
      // The conversation's audience only, as its messages (ADR-0224).
      const schedule = item as unknown as ScheduledMessageItem;
      return {
        accountId: schedule.accountId,
        payload: { event: `scheduledMessage.${verb}`, data: toScheduledMessage(schedule) },
        conversation: { contactId: schedule.contactId },
      };
    }
    default:
      return null;
  }
}
