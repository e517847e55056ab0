/** Contact items, their channel-id guard and their deletion tombstones. */
import { GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Gender } from '#contracts/contacts.ts';
import type { ConversationStatus } from '#contracts/conversations.ts';
import type { MessageSummary } from '#contracts/messages.ts';
import type { Table } from './client.ts';
import { unlessConditionFails } from './conditions.ts';
import { entityTypes, keys } from './keys.ts';
import { tableNow } from './table-clock.ts';
import { deleteStep, putNewStep, putStep, replaceIfUnchangedStep, type DeleteStep, type PutStep } from './transaction.ts';
import { queryAll } from './users.ts';

export interface ContactItem {
  pk: string;
  sk: string;
  gsi2pk: string;
  gsi2sk: string;
  /** Only while someone has the conversation open (`keys.openAssignment`): counted by round-robin. */
  gsi1pk?: string;
  gsi1sk?: string;
  type: typeof entityTypes.contact;
  id: string;
  accountId: string;
  serviceId: string;
  name: string;
  contactType: 'user' | 'group';
  idFromService: string;
  /**
   * Other channel ids of the same chat (a WhatsApp `@lid` id beside the phone-number JID). Each has
   * a guard item like `idFromService`'s, marked `alias`, pointing here.
   */
  channelAliases?: string[];
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
  /**
   * When the person last wrote to us on this connection (the newest inbound message's time): the
   * Cloud API's 24-hour customer-service window runs from it. Absent until the first inbound
   * message after it was kept (2026-11-27).
   */
  lastInboundAt?: string | null;
  /** When the person sent an opt-out word, and which (ADR-0225); absent or null while they receive campaigns. */
  optedOutAt?: string | null;
  optedOutWord?: string | null;
  /** The last campaign message sent to the person (ADR-0227): a reply or an opt-out after it counts on that campaign. */
  lastCampaign?: { id: string; serviceId: string; recipient: string; at: string } | null;
  unread: number;
  messagesCount: number;
  /** The team inbox (docs/product.md#team-inbox); absent on contacts stored before it (read as open, nobody's, no tags). */
  status?: ConversationStatus;
  userId?: string | null;
  /** The assignee's and the department's names as of the assignment, like a message's `user`. */
  user?: { id: string; name: string } | null;
  departmentId?: string | null;
  department?: { id: string; name: string } | null;
  tagIds?: string[];
  /**
   * The conversation lifecycle's state (shared/domain/automations/lifecycle.ts), opaque here: absent
   * while the account runs no automation, and on contacts from before it (read from status and assignee).
   */
  lifecycle?: object;
  /** The conversation going on (or the last one) as the lifecycle counts it for reports: its protocol, start and first answer. */
  conversationStats?: { protocol: string; startedAt: string; firstResponseAt: string | null };
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
  /** Set while the deleted contact's messages, files and avatar are being purged. */
  purge?: boolean;
  /** Bumped by every purge step: the change runs the next step. */
  purgeRound?: number;
  /** When the last purge step (or a resume) moved it on; absent until the first step (then `deletedAt`). */
  purgeSteppedAt?: string;
  avatarKey?: string | null;
  gsi1pk?: string;
  gsi1sk?: string;
}

export type ContactFields = Omit<ContactItem, 'pk' | 'sk' | 'gsi2pk' | 'gsi2sk' | 'gsi1pk' | 'gsi1sk' | 'type'>;

/**
 * The `updatedAt` of a contact's next version: now, or a millisecond past the previous one when
 * clocks disagree, so the change index and the optimistic checks always see it move forward.
 */
export function nextUpdatedAt(now: Date, previous: string): string {
  const iso = now.toISOString();
  return iso > previous ? iso : new Date(Date.parse(previous) + 1).toISOString();
}

/**
 * The change-index position of a write happening now: the table's clock, never the writer's, so a
 * writer whose clock runs ahead cannot put a change where every delta read finds it again, nor one
 * behind where none looks. Decoupled from `updatedAt`, which only has to grow per contact.
 */
function changeNow(accountId: string, contactId: string) {
  return keys.contactChange(accountId, new Date(tableNow()).toISOString(), contactId);
}

/** The stored item for a contact's fields, placed in the change index at the moment of writing. */
export function contactItem(fields: ContactFields): ContactItem {
  const openBy = openHolder(fields);
  return {
    ...keys.contact(fields.accountId, fields.id),
    ...changeNow(fields.accountId, fields.id),
    ...(openBy ? keys.openAssignment(fields.accountId, openBy, fields.id) : {}),
    type: entityTypes.contact,
    ...fields,
  };
}

export function contactFields(item: ContactItem): ContactFields {
  const { pk, sk, gsi2pk, gsi2sk, gsi1pk, gsi1sk, type, ...fields } = item;
  void pk;
  void sk;
  void gsi2pk;
  void gsi2sk;
  void gsi1pk;
  void gsi1sk;
  void type;
  return fields;
}

/**
 * Who has the conversation open (assigned, status open, not archived): the person its sparse
 * `keys.openAssignment` entry is written for, or null. Read on a contact read strongly, it is exact
 * where the index may still lag.
 */
export function openHolder(fields: Pick<ContactFields, 'userId' | 'status' | 'archivedAt'>): string | null {
  return fields.userId && (fields.status ?? 'open') === 'open' && !fields.archivedAt ? fields.userId : null;
}

/**
 * The conversations a person has open as the sparse index shows them (round-robin's cap). The
 * index is eventually consistent: a conversation assigned a moment ago may be missing, one resolved
 * a moment ago may still be listed.
 */
export async function indexedOpenAssignments(table: Table, accountId: string, userId: string): Promise<string[]> {
  const ids: string[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await table.doc.send(
      new QueryCommand({
        TableName: table.name,
        IndexName: 'gsi1',
        KeyConditionExpression: 'gsi1pk = :pk',
        ExpressionAttributeValues: { ':pk': keys.openAssignments(accountId, userId).gsi1pk },
        ProjectionExpression: 'gsi1sk',
        ExclusiveStartKey: start,
      }),
    );
    for (const item of page.Items ?? []) ids.push(item.gsi1sk as string);
    start = page.LastEvaluatedKey;
  } while (start);
  return ids;
}

export async function getContactItem(table: Table, accountId: string, contactId: string, consistent = false): Promise<ContactItem | undefined> {
  const { Item } = await table.doc.send(
    new GetCommand({ TableName: table.name, Key: keys.contact(accountId, contactId), ...(consistent ? { ConsistentRead: true } : {}) }),
  );
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

/**
 * Moves a change the index holds beyond `ahead` (stamped by a writer's clock before changes were
 * stamped by the table's) back to now, unless it changed meanwhile; it is then read once more and
 * left behind like any other.
 */
export async function restampChange(table: Table, change: ContactItem | ContactTombstone, ahead: string): Promise<void> {
  await unlessConditionFails(
    table.doc.send(
      new UpdateCommand({
        TableName: table.name,
        Key: { pk: change.pk, sk: change.sk },
        UpdateExpression: 'SET gsi2sk = :now',
        ConditionExpression: 'gsi2sk = :seen AND gsi2sk > :ahead',
        ExpressionAttributeValues: { ':now': changeNow(change.accountId, change.id).gsi2sk, ':seen': change.gsi2sk, ':ahead': ahead },
      }),
    ),
  );
}

/** Contacts and tombstones changed after a moment of the table's clock (gsi2), oldest first. */
export function contactChangesSince(table: Table, accountId: string, since: string): Promise<(ContactItem | ContactTombstone)[]> {
  return queryAll<ContactItem | ContactTombstone>(table, {
    IndexName: 'gsi2',
    KeyConditionExpression: 'gsi2pk = :pk AND gsi2sk > :since',
    ExpressionAttributeValues: { ':pk': keys.contactChanges(accountId).gsi2pk, ':since': since },
  });
}

/** Writes a contact's next version unless it changed since `seenUpdatedAt` was read; answers whether it was written. */
export async function saveContactIfUnchanged(table: Table, next: ContactItem, seenUpdatedAt: string): Promise<boolean> {
  const { Put } = replaceIfUnchangedStep(next, seenUpdatedAt);
  return (await unlessConditionFails(table.doc.send(new PutCommand({ TableName: table.name, ...Put })))) !== undefined;
}

/** The contact has no unread messages any more; its change index follows the new `updatedAt`. */
export async function clearUnread(table: Table, contact: Pick<ContactItem, 'accountId' | 'id'>, updatedAt: string): Promise<ContactItem> {
  const { Attributes } = await table.doc.send(
    new UpdateCommand({
      TableName: table.name,
      Key: keys.contact(contact.accountId, contact.id),
      UpdateExpression: 'SET unread = :zero, updatedAt = :now, gsi2sk = :sk',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: { ':zero': 0, ':now': updatedAt, ':sk': changeNow(contact.accountId, contact.id).gsi2sk },
      ReturnValues: 'ALL_NEW',
    }),
  );
  return Attributes as ContactItem;
}

type ChannelId = Pick<ContactItem, 'accountId' | 'serviceId' | 'idFromService'>;

/** Transaction member: claims a (connection, channel id) for a contact, refused when another contact has it. */
export function claimChannelIdStep(contact: ChannelId & Pick<ContactItem, 'id'>): PutStep {
  return putNewStep({
    ...keys.channelContact(contact.accountId, contact.serviceId, contact.idFromService),
    type: entityTypes.channelContact,
    contactId: contact.id,
  });
}

/** Transaction member: frees a contact's (connection, channel id). */
export function releaseChannelIdStep(contact: ChannelId): DeleteStep {
  return deleteStep(keys.channelContact(contact.accountId, contact.serviceId, contact.idFromService));
}

type ChannelAddress = Pick<ContactItem, 'accountId' | 'serviceId'>;

/** Transaction member: claims another channel id of a contact (an alias), refused when any contact has it. */
export function claimChannelAliasStep(contact: ChannelAddress & Pick<ContactItem, 'id'>, alias: string): PutStep {
  return putNewStep({
    ...keys.channelContact(contact.accountId, contact.serviceId, alias),
    type: entityTypes.channelContact,
    contactId: contact.id,
    alias: true,
  });
}

/** Transaction member: frees an alias of a contact. */
export function releaseChannelAliasStep(contact: ChannelAddress, alias: string): DeleteStep {
  return deleteStep(keys.channelContact(contact.accountId, contact.serviceId, alias));
}

/**
 * Transaction member: hands a channel id one contact holds to another (a contact re-keyed to its
 * phone number, two contacts merged), refused unless `fromContactId` still holds it.
 */
export function moveChannelIdStep(address: ChannelAddress, channelId: string, fromContactId: string, to: { contactId: string; alias: boolean }): PutStep {
  return {
    Put: {
      Item: {
        ...keys.channelContact(address.accountId, address.serviceId, channelId),
        type: entityTypes.channelContact,
        contactId: to.contactId,
        alias: to.alias,
      },
      ConditionExpression: 'contactId = :from',
      ExpressionAttributeValues: { ':from': fromContactId },
    },
  };
}

/** Transaction member: deletes a contact, refused when it changed since `updatedAt` was read (or is gone). */
export function deleteContactIfUnchangedStep(contact: Pick<ContactItem, 'accountId' | 'id' | 'updatedAt'>): DeleteStep {
  return {
    Delete: {
      Key: keys.contact(contact.accountId, contact.id),
      ConditionExpression: 'updatedAt = :seen',
      ExpressionAttributeValues: { ':seen': contact.updatedAt },
    },
  };
}

/**
 * Transaction member: the tombstone a deleted contact leaves in the change index for a while.
 * `purge`: the contact's messages, their files and its avatar are to be removed (a deletion; a
 * merge moves them instead), by the `contact-purge` consumer (shared/domain/contacts/contact-purge.ts).
 */
export function contactTombstoneStep(accountId: string, contactId: string, deletedAt: string, ttl: number, purge?: { avatarKey: string | null }): PutStep {
  const tombstone: ContactTombstone = {
    ...keys.contactTombstone(accountId, contactId),
    ...changeNow(accountId, contactId),
    type: entityTypes.contactTombstone,
    id: contactId,
    accountId,
    deletedAt,
    ttl,
    ...(purge ? { ...keys.pendingContactPurge(deletedAt, accountId, contactId), purge: true, purgeRound: 0, avatarKey: purge.avatarKey } : {}),
  };
  return putStep(tombstone);
}

/**
 * Sets a contact's last-message preview, when the contact is still the version that was read.
 * Answers false when a newer change won (it carries its own last message).
 */
export async function writeLastMessage(table: Table, contact: ContactItem, summary: MessageSummary, updatedAt: string): Promise<boolean> {
  const written = await unlessConditionFails(
    table.doc.send(
      new UpdateCommand({
        TableName: table.name,
        Key: keys.contact(contact.accountId, contact.id),
        UpdateExpression: 'SET lastMessage = :summary, updatedAt = :now, gsi2sk = :sk',
        ConditionExpression: 'updatedAt = :seen',
        ExpressionAttributeValues: {
          ':summary': summary,
          ':now': updatedAt,
          ':sk': changeNow(contact.accountId, contact.id).gsi2sk,
          ':seen': contact.updatedAt,
        },
      }),
    ),
  );
  return written !== undefined;
}
