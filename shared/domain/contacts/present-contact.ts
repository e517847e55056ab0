/** A contact as the API answers it, with its connection and its avatar's signed URL. */
import type { Contact } from '#contracts/contacts.ts';
import type { ContactFields } from '#db/contacts.ts';
import type { ServiceItem } from '#db/services.ts';

type ServiceRef = Pick<ServiceItem, 'id' | 'name' | 'channelType'>;

export function toContact(item: ContactFields, service: ServiceRef | undefined, avatarUrl: string | null = null): Contact {
  return {
    id: item.id,
    name: item.name,
    type: item.contactType,
    data: { email: item.email, phoneNumber: item.phoneNumber, phoneCountry: item.phoneCountry },
    idFromService: item.idFromService,
    gender: item.gender,
    serviceId: item.serviceId,
    service: service ? { id: service.id, name: service.name, type: service.channelType } : null,
    avatar: avatarUrl ? { url: avatarUrl } : null,
    avatarUrl,
    isOnline: item.isOnline,
    lastSeenAt: item.lastSeenAt,
    archivedAt: item.archivedAt,
    archivedReason: item.archivedReason,
    lastMessage: item.lastMessage,
    lastMessageAt: item.lastMessageAt,
    lastInboundAt: item.lastInboundAt ?? null,
    optedOutAt: item.optedOutAt ?? null,
    optedOutWord: item.optedOutWord ?? null,
    unread: item.unread,
    status: item.status ?? 'open',
    userId: item.userId ?? null,
    departmentId: item.departmentId ?? null,
    tags: item.tagIds ?? [],
    user: item.user ?? null,
    department: item.department ?? null,
    createdAt: item.createdAt,
    updatedAt: item.updatedAt,
  };
}

/** A contact as the API answers it, its avatar URL freshly signed. */
export async function presentContact(
  item: ContactFields,
  service: ServiceRef | undefined,
  sign: (key: string, name: string, mimetype: string) => Promise<string>,
): Promise<Contact> {
  return toContact(item, service, item.avatarKey ? await sign(item.avatarKey, 'avatar.jpg', 'image/jpeg') : null);
}
