/**
 * 'Exportar dados' of a contact (LGPD access request): the contact's profile and its whole
 * conversation, oldest first, each file with a signed download link (valid for an hour), as one JSON
 * document the web app saves as a file. Admins only.
 */
import type { Contact } from '#contracts/contacts.ts';
import type { Message } from '#contracts/messages.ts';
import { allMessagesOf } from '#db/messages.ts';
import { getServiceItem } from '#db/services.ts';
import { fail } from '../errors.ts';
import { toMessage } from '../messages/present-message.ts';
import type { Ports } from '../ports.ts';
import type { AccountSession } from '../session.ts';
import { loadContact } from './contacts.ts';
import { presentContact } from './present-contact.ts';

export interface ContactExport {
  exportedAt: string;
  contact: Contact;
  messages: Message[];
}

export async function exportContact(ports: Ports, session: AccountSession, id: string): Promise<ContactExport> {
  if (!session.user.isAdmin) throw fail.forbidden();
  const item = await loadContact(ports, session.accountId, id);
  const [service, messages] = await Promise.all([
    getServiceItem(ports.table, session.accountId, item.serviceId),
    allMessagesOf(ports.table, session.accountId, item.id),
  ]);
  const sign = ports.storage.downloadUrl;
  return {
    exportedAt: ports.clock().toISOString(),
    contact: await presentContact(item, service, sign),
    messages: await Promise.all(messages.map((m) => toMessage(m, sign))),
  };
}
