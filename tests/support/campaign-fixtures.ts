/**
 * What the campaign tests on the table put there: a stored contact with every field a new contact
 * has (`overrides` on top), and an admin's session of an account.
 */
import { contactItem, type ContactFields, type ContactItem } from '#db/contacts.ts';
import type { AccountSession } from '#domain/session.ts';

export function storedContact(accountId: string, serviceId: string, at: string, overrides: Partial<ContactFields> & { id: string }): ContactItem {
  return contactItem({
    accountId,
    serviceId,
    name: `Cliente ${overrides.id}`,
    contactType: 'user',
    idFromService: overrides.id,
    email: null,
    phoneNumber: '5511999990000',
    phoneCountry: 'BR',
    gender: null,
    avatarKey: null,
    isOnline: false,
    lastSeenAt: null,
    archivedAt: null,
    archivedReason: null,
    lastMessage: null,
    lastMessageAt: null,
    unread: 0,
    messagesCount: 0,
    createdAt: at,
    updatedAt: at,
    ...overrides,
  });
}

/** Ana Souza, an admin of the account. */
export const adminSession = (accountId: string): AccountSession =>
  ({ accountId, user: { id: 'admin', name: 'Ana Souza', isAdmin: true }, claims: {} }) as unknown as AccountSession;
