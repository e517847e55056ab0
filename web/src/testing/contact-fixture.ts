import type { Contact } from '#contracts/contacts.ts';

/**
 * A contact as the API answers it: open, on a Telegram bot, with no message, tag, department or
 * assignee. Tests and measuring scripts give the id and whatever they look at.
 */
export function contactFixture(fields: Partial<Contact> & Pick<Contact, 'id'>, at = '2026-01-01T12:00:00.000Z'): Contact {
  return {
    name: `Contato ${fields.id}`,
    type: 'user',
    data: { email: null, phoneNumber: null, phoneCountry: null },
    idFromService: fields.id,
    gender: null,
    serviceId: 's1',
    service: { id: 's1', name: 'Bot', type: 'telegram' },
    avatar: null,
    avatarUrl: null,
    isOnline: false,
    lastSeenAt: null,
    archivedAt: null,
    archivedReason: null,
    lastMessage: null,
    lastMessageAt: null,
    lastInboundAt: null,
    optedOutAt: null,
    optedOutWord: null,
    unread: 0,
    status: 'open',
    userId: null,
    departmentId: null,
    tags: [],
    user: null,
    department: null,
    createdAt: at,
    updatedAt: at,
    ...fields,
  };
}
