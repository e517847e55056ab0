/** Contact items, their channel-id guard and their deletion tombstones. */
import { GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { isConditionFailure } from './conditions.ts';
import type { Contact, Gender } from '#contracts/contacts.ts';
import type { MessageSummary } from '#contracts/messages.ts';
import type { Table } from './client.ts';
import { entityTypes, keys } from './keys.ts';
import type { ServiceItem } from './services.ts';
import { queryAll } from './users.ts';

export interface ContactItem {
  pk: string;
  sk: string;
  gsi2pk: string;
  gsi2sk: string;
  type: typeof entityTypes.contact;
  id: string;
  accountId: string;
  serviceId: string;
  name: string;
  contactType: 'user' | 'group';
  idFromService: string;
  email: string | null;
  phoneNumber: string | null;
  phoneCountry: string | null;
  gender: Gender | null;
  /** The avatar's bucket key; its URL is signed whenever the contact is read. */
  avatarKey: string | null;
  isOnline: boolean;
  lastSeenAt: string | null;
  archivedAt: string | null;
  archivedReason: 'limit' | 'manual' | null;
  lastMessage: MessageSummary | null;
  lastMessageAt: string | null;
  unread: number;
  messagesCount: number;
  createdAt: string;
  updatedAt: string;
}

export interface ContactTombstone {
  pk: string;
  sk: string;
  gsi2pk: string;
  gsi2sk: string;
  type: typeof entityTypes.contactTombstone;
  id: string;
  accountId: string;
  deletedAt: string;
  ttl: number;
}

export type ContactFields = Omit<ContactItem, 'pk' | 'sk' | 'gsi2pk' | 'gsi2sk' | 'type'>;

/**
 * The `updatedAt` of a contact's next version: now, or a millisecond past the previous one when
 * clocks disagree, so the change index and the optimistic checks always see it move forward.
 */
export function nextUpdatedAt(now: Date, previous: string): string {
  const iso = now.toISOString();
  return iso > previous ? iso : new Date(Date.parse(previous) + 1).toISOString();
}

/** The stored item for a contact's fields; the change index follows `updatedAt`. */
export function contactItem(fields: ContactFields): ContactItem {
  return {
    ...keys.contact(fields.accountId, fields.id),
    ...keys.contactChange(fields.accountId, fields.updatedAt, fields.id),
    type: entityTypes.contact,
    ...fields,
  };
}

export function contactFields(item: ContactItem): ContactFields {
  const { pk, sk, gsi2pk, gsi2sk, type, ...fields } = item;
  void pk; void sk; void gsi2pk; void gsi2sk; void type;
  return fields;
}

export function toContact(
  item: ContactItem,
  service: Pick<ServiceItem, 'id' | 'name' | 'channelType'> | undefined,
  avatarUrl: string | null = null,
): Contact {
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
    unread: item.unread,
    userId: null,
    departmentId: null,
    tags: [],
    user: null,
    department: null,
    createdAt: item.createdAt,
    updatedAt: item.updatedAt,
  };
}

/** A contact as the API answers it, its avatar URL freshly signed. */
export async function presentContact(
  item: ContactItem,
  service: Pick<ServiceItem, 'id' | 'name' | 'channelType'> | undefined,
  sign: (key: string, name: string) => Promise<string>,
): Promise<Contact> {
  return toContact(item, service, item.avatarKey ? await sign(item.avatarKey, 'avatar.jpg') : null);
}

export async function getContactItem(table: Table, accountId: string, contactId: string): Promise<ContactItem | undefined> {
  const { Item } = await table.doc.send(new GetCommand({ TableName: table.name, Key: keys.contact(accountId, contactId) }));
  return Item as ContactItem | undefined;
}

/** The contact of a channel id on a connection, through the guard item. */
export async function contactIdByChannel(table: Table, accountId: string, serviceId: string, idFromService: string): Promise<string | undefined> {
  const { Item } = await table.doc.send(
    new GetCommand({ TableName: table.name, Key: keys.channelContact(accountId, serviceId, idFromService), ConsistentRead: true }),
  );
  return Item?.contactId as string | undefined;
}

export function allContacts(table: Table, accountId: string): Promise<ContactItem[]> {
  const { pk, skPrefix } = keys.accountContacts(accountId);
  return queryAll<ContactItem>(table, {
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)',
    ExpressionAttributeValues: { ':pk': pk, ':p': skPrefix },
  });
}

/** Contacts and tombstones changed after a moment (gsi2), oldest first. */
export async function contactChangesSince(table: Table, accountId: string, since: string): Promise<(ContactItem | ContactTombstone)[]> {
  const items: (ContactItem | ContactTombstone)[] = [];
  let ExclusiveStartKey: Record<string, unknown> | undefined;
  do {
    const page = await table.doc.send(
      new QueryCommand({
        TableName: table.name,
        IndexName: 'gsi2',
        KeyConditionExpression: 'gsi2pk = :pk AND gsi2sk > :since',
        ExpressionAttributeValues: { ':pk': keys.contactChanges(accountId).gsi2pk, ':since': since },
        ExclusiveStartKey,
      }),
    );
    items.push(...((page.Items ?? []) as (ContactItem | ContactTombstone)[]));
    ExclusiveStartKey = page.LastEvaluatedKey;
  } while (ExclusiveStartKey);
  return items;
}

/**
 * Sets a contact's last-message preview, when the contact is still the version that was read.
 * Answers false when a newer change won (it carries its own last message).
 */
export async function writeLastMessage(table: Table, contact: ContactItem, summary: MessageSummary, updatedAt: string): Promise<boolean> {
  try {
    await table.doc.send(
      new UpdateCommand({
        TableName: table.name,
        Key: keys.contact(contact.accountId, contact.id),
        UpdateExpression: 'SET lastMessage = :summary, updatedAt = :now, gsi2sk = :sk',
        ConditionExpression: 'updatedAt = :seen',
        ExpressionAttributeValues: {
          ':summary': summary,
          ':now': updatedAt,
          ':sk': keys.contactChange(contact.accountId, updatedAt, contact.id).gsi2sk,
          ':seen': contact.updatedAt,
        },
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}
