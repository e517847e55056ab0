/**
 * Contacts: the rules of SPEC sections 4-6. A contact is unique per connection and channel id; past
 * the plan's contact limit new contacts are kept but archived (archivedReason 'limit'); only
 * active contacts take a seat of the limit.
 */
import { PutCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { contactRuleProblems, type Contact, type ContactPayload } from '#contracts/contacts.ts';
import type { ListAnswer } from '#contracts/entities.ts';
import { errorTexts } from '#contracts/errors.ts';
import type { ListQuery } from '#contracts/list-query.ts';
import { effectiveLimits } from '#contracts/plans.ts';
import { getAccountItem, releaseCounterStep, takeCounterStep } from '#db/accounts.ts';
import { failedConditions, isConditionFailure, replaceIfUnchanged } from '#db/conditions.ts';
import { contactFields, contactItem, getContactItem, nextUpdatedAt, presentContact, toContact, type ContactFields, type ContactItem, type ContactTombstone } from '#db/contacts.ts';
import { entityTypes, keys } from '#db/keys.ts';
import { accountServices, getServiceItem } from '#db/services.ts';
import { fail } from '../errors.ts';
import type { ListRules } from '../list-query.ts';
import type { Ports } from '../ports.ts';
import type { AccountSession } from '../session.ts';
import { contactDirectory, tombstoneLifetimeSeconds } from './contact-directory.ts';

export const contactListRules: ListRules = {
  fields: [
    'id', 'name', 'type', 'data.email', 'data.phoneNumber', 'idFromService', 'gender', 'serviceId', 'service.type',
    'archivedAt', 'archivedReason', 'isOnline', 'unread', 'lastMessageAt', 'createdAt', 'updatedAt',
  ],
  includes: ['service', 'lastMessage', 'avatar', 'user', 'department', 'tags'],
  defaultOrder: [['lastMessageAt', 'DESC'], ['name', 'ASC']],
};

export async function listContacts(ports: Ports, session: AccountSession, q: ListQuery): Promise<ListAnswer<Contact>> {
  return contactDirectory.list(ports.table, session.accountId, () => accountServices(ports.table, session.accountId), q, ports.storage.downloadUrl);
}

export async function loadContact(ports: Ports, accountId: string, id: string): Promise<ContactItem> {
  const item = await getContactItem(ports.table, accountId, id);
  if (!item) throw fail.notFound();
  return item;
}

async function present(ports: Ports, item: ContactItem): Promise<Contact> {
  return presentContact(item, await getServiceItem(ports.table, item.accountId, item.serviceId), ports.storage.downloadUrl);
}

export async function getContact(ports: Ports, session: AccountSession, id: string): Promise<Contact> {
  return present(ports, await loadContact(ports, session.accountId, id));
}

function invalid(problems: [string, string][]) {
  return fail.invalid(errorTexts.invalidParams, problems.map(([path, message]) => ({ path, message })));
}

/** The channel id of a WhatsApp contact is its number's JID. */
export function whatsappJid(phoneDigits: string): string {
  return `${phoneDigits}@s.whatsapp.net`;
}

/**
 * Stores a new contact: claims its channel id and, while the plan has room, a seat; with no room
 * left the contact is stored archived. Answers the stored item.
 */
export type NewContact = Pick<
  ContactFields,
  'accountId' | 'serviceId' | 'name' | 'contactType' | 'idFromService' | 'email' | 'phoneNumber' | 'phoneCountry' | 'gender' | 'avatarKey'
>;

export async function insertContact(ports: Ports, contact: NewContact): Promise<ContactItem> {
  const now = ports.clock().toISOString();
  const fields = {
    ...contact,
    id: ports.newId(),
    isOnline: false,
    lastSeenAt: null,
    lastMessage: null,
    lastMessageAt: null,
    unread: 0,
    messagesCount: 0,
    createdAt: now,
    updatedAt: now,
  };
  const account = await getAccountItem(ports.table, fields.accountId);
  if (!account) throw fail.notFound();
  const limit = effectiveLimits(account.plan).contacts;
  const attempt = async (archived: boolean) => {
    const item = contactItem({
      ...fields,
      archivedAt: archived ? fields.createdAt : null,
      archivedReason: archived ? 'limit' : null,
    });
    await ports.table.doc.send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Put: {
              TableName: ports.table.name,
              Item: { ...keys.channelContact(fields.accountId, fields.serviceId, fields.idFromService), type: entityTypes.channelContact, contactId: fields.id },
              ConditionExpression: 'attribute_not_exists(pk)',
            },
          },
          { Put: { TableName: ports.table.name, Item: item, ConditionExpression: 'attribute_not_exists(pk)' } },
          ...(archived ? [] : [takeCounterStep(ports.table, fields.accountId, 'contactsCount', limit)]),
        ],
      }),
    );
    return item;
  };
  try {
    return await attempt((account.contactsCount ?? 0) >= limit);
  } catch (error) {
    const failed = failedConditions(error);
    if (failed?.includes(0)) {
      throw fail.invalid(errorTexts.invalidParams, [{ path: 'idFromService', message: 'Já existe um contato com este número nesta conexão' }]);
    }
    if (failed?.includes(2)) return attempt(true);
    throw error;
  }
}

export async function createContact(ports: Ports, session: AccountSession, payload: ContactPayload): Promise<Contact> {
  const service = await getServiceItem(ports.table, session.accountId, payload.serviceId);
  if (!service) throw invalid([['serviceId', 'Conexão não encontrada']]);
  const problems = contactRuleProblems(payload, { mode: 'create', serviceType: service.channelType });
  if (problems.length) throw invalid(problems);
  const item = await insertContact(ports, {
    accountId: session.accountId,
    serviceId: service.id,
    name: payload.name,
    contactType: 'user',
    idFromService: service.channelType === 'whatsapp' ? whatsappJid(payload.data.phoneNumber!) : payload.idFromService!,
    email: payload.data.email,
    phoneNumber: payload.data.phoneNumber,
    phoneCountry: payload.data.phoneCountry,
    gender: payload.gender,
    avatarKey: null,
  });
  return toContact(item, service);
}

/** Writes a contact's new state if nobody changed it meanwhile. */
export async function replaceContact(ports: Ports, current: ContactItem, changes: Partial<ContactFields>): Promise<ContactItem> {
  const next = contactItem({ ...contactFields(current), ...changes, updatedAt: nextUpdatedAt(ports.clock(), current.updatedAt) });
  try {
    await ports.table.doc.send(
      new PutCommand(replaceIfUnchanged(ports.table.name, next, current.updatedAt)),
    );
  } catch (error) {
    if (isConditionFailure(error)) throw fail.invalid(errorTexts.invalidParams, [{ path: '', message: 'O contato foi alterado por outra pessoa. Tente de novo.' }]);
    throw error;
  }
  return next;
}

export async function updateContact(ports: Ports, session: AccountSession, id: string, payload: ContactPayload): Promise<Contact> {
  const current = await loadContact(ports, session.accountId, id);
  const service = await getServiceItem(ports.table, session.accountId, current.serviceId);
  const serviceType = service?.channelType ?? 'whatsapp';
  const original = { serviceId: current.serviceId, idFromService: current.idFromService, data: { email: current.email, phoneNumber: current.phoneNumber, phoneCountry: current.phoneCountry } };
  const problems = contactRuleProblems(payload, { mode: 'edit', serviceType, original });
  if (problems.length) throw invalid(problems);
  const telegram = serviceType === 'telegram';
  const next = await replaceContact(ports, current, {
    name: payload.name,
    gender: payload.gender,
    email: payload.data.email,
    phoneNumber: telegram ? payload.data.phoneNumber : current.phoneNumber,
    phoneCountry: telegram ? payload.data.phoneCountry : current.phoneCountry,
  });
  return presentContact(next, service, ports.storage.downloadUrl);
}

/** Archives or unarchives (admins only); unarchiving needs a free seat in the plan. */
export async function archiveContact(ports: Ports, session: AccountSession, id: string, archive: boolean): Promise<Contact> {
  if (!session.user.isAdmin) throw fail.forbidden();
  const current = await loadContact(ports, session.accountId, id);
  if (Boolean(current.archivedAt) === archive) return present(ports, current);
  const account = await getAccountItem(ports.table, session.accountId);
  if (!account) throw fail.notFound();
  const updatedAt = nextUpdatedAt(ports.clock(), current.updatedAt);
  const next = contactItem({
    ...contactFields(current),
    archivedAt: archive ? updatedAt : null,
    archivedReason: archive ? 'manual' : null,
    updatedAt,
  });
  try {
    await ports.table.doc.send(
      new TransactWriteCommand({
        TransactItems: [
          archive
            ? releaseCounterStep(ports.table, session.accountId, 'contactsCount')
            : takeCounterStep(ports.table, session.accountId, 'contactsCount', effectiveLimits(account.plan).contacts),
          { Put: replaceIfUnchanged(ports.table.name, next, current.updatedAt) },
        ],
      }),
    );
  } catch (error) {
    const failed = failedConditions(error);
    if (failed?.includes(0) && !archive) throw fail.limit(errorTexts.contactOrUserLimit);
    if (failed?.length) throw fail.invalid(errorTexts.invalidParams, [{ path: '', message: 'O contato foi alterado por outra pessoa. Tente de novo.' }]);
    throw error;
  }
  return present(ports, next);
}

export async function deleteContact(ports: Ports, session: AccountSession, id: string): Promise<void> {
  const current = await loadContact(ports, session.accountId, id);
  const now = ports.clock();
  const deletedAt = nextUpdatedAt(now, current.updatedAt);
  const tombstone: ContactTombstone = {
    ...keys.contactTombstone(session.accountId, id),
    ...keys.contactChange(session.accountId, deletedAt, id),
    type: entityTypes.contactTombstone,
    id,
    accountId: session.accountId,
    deletedAt,
    ttl: Math.floor(now.getTime() / 1000) + tombstoneLifetimeSeconds,
  };
  await ports.table.doc.send(
    new TransactWriteCommand({
      TransactItems: [
        {
          Delete: {
            TableName: ports.table.name,
            Key: keys.contact(session.accountId, id),
            ConditionExpression: 'updatedAt = :seen',
            ExpressionAttributeValues: { ':seen': current.updatedAt },
          },
        },
        { Delete: { TableName: ports.table.name, Key: keys.channelContact(session.accountId, current.serviceId, current.idFromService) } },
        { Put: { TableName: ports.table.name, Item: tombstone } },
        ...(current.archivedAt ? [] : [releaseCounterStep(ports.table, session.accountId, 'contactsCount')]),
      ],
    }),
  );
}

/** Opening a conversation: the contact has no unread messages any more. */
export async function markContactRead(ports: Ports, session: AccountSession, id: string): Promise<Contact> {
  const current = await loadContact(ports, session.accountId, id);
  if (current.unread === 0) return present(ports, current);
  const updatedAt = nextUpdatedAt(ports.clock(), current.updatedAt);
  const { Attributes } = await ports.table.doc.send(
    new UpdateCommand({
      TableName: ports.table.name,
      Key: keys.contact(session.accountId, id),
      UpdateExpression: 'SET unread = :zero, updatedAt = :now, gsi2sk = :sk',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: { ':zero': 0, ':now': updatedAt, ':sk': keys.contactChange(session.accountId, updatedAt, id).gsi2sk },
      ReturnValues: 'ALL_NEW',
    }),
  );
  return present(ports, Attributes as ContactItem);
}

