/**
 * Contacts: the rules of docs/product.md#validation and docs/product.md#roles-and-permissions. A contact is unique per connection and channel id; past
 * the plan's contact limit new contacts are kept but archived (archivedReason 'limit'); only
 * active contacts take a seat of the limit.
 */
import { maxContactsSkipped } from '#contracts/contact-limits.ts';
import { contactRuleProblems, type Contact, type ContactPayload } from '#contracts/contacts.ts';
import type { ServiceType } from '#contracts/services.ts';
import type { ListAnswer } from '#contracts/entities.ts';
import { errorTexts } from '#contracts/errors.ts';
import type { ListQuery } from '#contracts/list-query.ts';
import { effectiveLimits } from '#contracts/plans.ts';
import { getAccountItem, releaseSeatStep, takeSeatStep } from '#db/accounts.ts';
import {
  claimChannelAliasStep,
  claimChannelIdStep,
  clearUnread,
  contactFields,
  contactItem,
  contactTombstoneStep,
  deleteContactIfUnchangedStep,
  getContactItem,
  nextUpdatedAt,
  releaseChannelAliasStep,
  releaseChannelIdStep,
  saveContactIfUnchanged,
  type ContactFields,
  type ContactItem,
} from '#db/contacts.ts';
import type { MessageItem } from '#db/messages.ts';
import { accountServices, getServiceItem } from '#db/services.ts';
import { putNewStep, refusedBy, replaceIfUnchangedStep, writeTogether } from '#db/transaction.ts';
import { fail } from '../errors.ts';
import type { ListRules } from '../list-query.ts';
import type { Ports } from '../ports.ts';
import type { AccountSession } from '../session.ts';
import type { LineContact } from '../conversations/conversation-lines.ts';
import { loadVisibleContact, viewerOf, visibleWhere, type Viewer } from '../conversations/visibility.ts';
import { contactDirectory, tombstoneLifetimeSeconds, type ContactDirectory } from './contact-directory.ts';
import { readContactSnapshot, writeContactSnapshot } from './contact-snapshot.ts';
import { presentContact, toContact } from './present-contact.ts';
import { queueContactCheck } from './contact-check.ts';
import { queueReadReceipts } from './read-receipts.ts';

export const contactListRules: ListRules = {
  fields: [
    'id',
    'name',
    'type',
    'data.email',
    'data.phoneNumber',
    'idFromService',
    'gender',
    'serviceId',
    'service.type',
    'archivedAt',
    'archivedReason',
    'isOnline',
    'unread',
    'lastMessageAt',
    'lastInboundAt',
    // Opted out of campaigns (ADR-0225): segments exclude them with `optedOutAt: null`.
    'optedOutAt',
    'createdAt',
    'updatedAt',
    // The team inbox (docs/product.md#team-inbox); `tags` matches a contact carrying the tag id.
    'status',
    'userId',
    'departmentId',
    'tags',
  ],
  includes: ['service', 'lastMessage', 'avatar', 'user', 'department', 'tags'],
  // The team inbox (docs/product.md#team-inbox): `tags` matches a contact carrying the tag id.

  defaultOrder: [
    ['lastMessageAt', 'DESC'],
    ['name', 'ASC'],
  ],
  cursor: true,
};

/** The contacts the caller may see (conversations/visibility.ts), through the directory. */
export async function listContacts(ports: Ports, session: AccountSession, q: ListQuery, known?: Viewer): Promise<ListAnswer<Contact>> {
  const { accountId } = session;
  if (q.page * q.perPage > maxContactsSkipped) {
    throw fail.invalid(errorTexts.invalidParams, [
      {
        path: 'query.page',
        message: `Números de página alcançam os primeiros ${maxContactsSkipped} contatos; as páginas seguintes vão por cursor (after: <nextCursor>)`,
      },
    ]);
  }
  const viewer = known ?? (await viewerOf(ports, session));
  const visible = { ...q, where: visibleWhere(viewer, q.where) };
  const answer = await contactDirectory.list(
    ports.table,
    accountId,
    () => accountServices(ports.table, accountId),
    visible,
    ports.storage.downloadUrl,
    () => readContactSnapshot(ports.storage, accountId),
  );
  // A cold view read every contact item (the account has no usable snapshot yet, e.g. contacts
  // imported before snapshots existed and unchanged since): it writes one before answering, so
  // only this first cold start pays the full read (ADR-0058).
  if (contactDirectory.lastSync(accountId)?.loaded === 'items') await firstSnapshot(ports, accountId);
  return answer;
}

/** Snapshot writes started by cold views, by account: callers that shared one full load share one write. */
const snapshotsWriting = new Map<string, Promise<void>>();

function firstSnapshot(ports: Ports, accountId: string): Promise<void> {
  let writing = snapshotsWriting.get(accountId);
  if (!writing) {
    writing = refreshContactSnapshot(ports, accountId)
      .then(() => undefined)
      .catch((error: unknown) => console.warn(`Contact snapshot of account ${accountId} not written`, error))
      .finally(() => snapshotsWriting.delete(accountId));
    snapshotsWriting.set(accountId, writing);
  }
  return writing;
}

/**
 * Orders a contact snapshot carries besides its rows' own (the default order): the contacts
 * screen's (web/src/features/contacts), so its first page after a cold start sorts nothing.
 */
export const contactSnapshotOrders: ListQuery['order'][] = [[['name', 'ASC']]];

/**
 * Brings the account's contact snapshot up to date (the `contact-snapshots` stream consumer, after
 * contacts changed, when `due` for the account's contact count: snapshot-rewrites.ts): the
 * directory's view, current, written in the list's default order. Answers whether it wrote.
 */
export async function refreshContactSnapshot(
  ports: Ports,
  accountId: string,
  directory: ContactDirectory = contactDirectory,
  due: (contacts: number) => boolean = () => true,
): Promise<boolean> {
  // A deleted account (its item goes first, with the request): no snapshot may outlive the purge of its files.
  const account = await getAccountItem(ports.table, accountId);
  if (!account || !due(account.contactsCount)) return false;
  const snapshot = await directory.snapshot(
    ports.table,
    accountId,
    () => accountServices(ports.table, accountId),
    contactListRules.defaultOrder ?? [],
    () => readContactSnapshot(ports.storage, accountId),
    contactSnapshotOrders,
  );
  await writeContactSnapshot(ports.storage, snapshot);
  return true;
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
  return present(ports, await loadVisibleContact(ports, session, id));
}

const changedMeanwhile = () => fail.invalid(errorTexts.invalidParams, [{ path: '', message: 'O contato foi alterado por outra pessoa. Tente de novo.' }]);

function invalid(problems: [string, string][]) {
  return fail.invalid(
    errorTexts.invalidParams,
    problems.map(([path, message]) => ({ path, message })),
  );
}

/** The channel id of a WhatsApp contact is its number's JID. */
export function whatsappJid(phoneDigits: string): string {
  return `${phoneDigits}@s.whatsapp.net`;
}

export type NewContact = Pick<
  ContactFields,
  'accountId' | 'serviceId' | 'name' | 'contactType' | 'idFromService' | 'email' | 'phoneNumber' | 'phoneCountry' | 'gender' | 'avatarKey'
> &
  Partial<Pick<ContactFields, 'channelAliases' | 'departmentId' | 'department'>>;

/**
 * Stores a new contact: claims its channel id and, while the plan has room, a seat; with no room
 * left the contact is stored archived. `lines` are the conversation's first lines (the system line
 * of its routing to a department), written in the same transaction. Answers the stored item.
 */
export async function insertContact(ports: Ports, contact: NewContact, lines: (contact: LineContact) => MessageItem[] = () => []): Promise<ContactItem> {
  const now = ports.clock().toISOString();
  const id = ports.newId();
  const opening = lines({ accountId: contact.accountId, id, serviceId: contact.serviceId });
  const fields = {
    ...contact,
    id,
    isOnline: false,
    lastSeenAt: null,
    lastMessage: null,
    lastMessageAt: null,
    unread: 0,
    messagesCount: opening.length,
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
    try {
      await writeTogether(ports.table, {
        channelId: claimChannelIdStep(item),
        ...Object.fromEntries((item.channelAliases ?? []).map((alias, i) => [`channelAlias${i}`, claimChannelAliasStep(item, alias)])),
        contact: putNewStep(item),
        ...Object.fromEntries(opening.map((line, i) => [`line${i}`, putNewStep(line)])),
        seat: !archived && takeSeatStep(fields.accountId, 'contactsCount', limit),
      });
    } catch (error) {
      if (refusedBy(error, 'channelId', ...(item.channelAliases ?? []).map((_, i) => `channelAlias${i}`))) {
        throw fail.invalid(errorTexts.invalidParams, [{ path: 'idFromService', message: 'Já existe um contato com este número nesta conexão' }]);
      }
      throw error;
    }
    return item;
  };
  const full = (account.contactsCount ?? 0) >= limit;
  try {
    return await attempt(full);
  } catch (error) {
    // The last seat went meanwhile: the contact is kept, archived.
    if (!full && refusedBy(error, 'seat')) return attempt(true);
    throw error;
  }
}

/** A contact made by hand is kept under the id its channel sends to: the WhatsApp JID, the Cloud API's digits (wa_id), Telegram's chat id. */
function contactIdFromService(type: ServiceType, payload: ContactPayload): string {
  if (type === 'whatsapp') return whatsappJid(payload.data.phoneNumber!);
  if (type === 'whatsapp_cloud') return payload.data.phoneNumber!.replace(/\D/g, '');
  return payload.idFromService!;
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
    idFromService: contactIdFromService(service.channelType, payload),
    email: payload.data.email,
    phoneNumber: payload.data.phoneNumber,
    phoneCountry: payload.data.phoneCountry,
    gender: payload.gender,
    avatarKey: null,
  });
  // A number typed by hand is checked on the channel now, not only at its first send (contact-check.ts).
  await queueContactCheck(ports, item, service);
  return toContact(item, service);
}

/** Writes a contact's new state if nobody changed it meanwhile. */
export async function replaceContact(ports: Ports, current: ContactItem, changes: Partial<ContactFields>): Promise<ContactItem> {
  const next = contactItem({ ...contactFields(current), ...changes, updatedAt: nextUpdatedAt(ports.clock(), current.updatedAt) });
  if (!(await saveContactIfUnchanged(ports.table, next, current.updatedAt))) throw changedMeanwhile();
  return next;
}

/**
 * Writes changes that do not depend on the state they replace (a whole tag set): when someone changed
 * the contact meanwhile, they are applied again to the newer state (after a short random pause, so
 * the writers spread out), up to six times in all, so people tagging at once all succeed (last write
 * wins) instead of all but one getting the conflict.
 */
export async function replaceContactBlind(
  ports: Ports,
  current: ContactItem,
  reload: () => Promise<ContactItem>,
  changes: Partial<ContactFields>,
): Promise<ContactItem> {
  for (let attempt = 1; ; attempt++) {
    const next = contactItem({ ...contactFields(current), ...changes, updatedAt: nextUpdatedAt(ports.clock(), current.updatedAt) });
    if (await saveContactIfUnchanged(ports.table, next, current.updatedAt)) return next;
    if (attempt === 6) throw changedMeanwhile();
    await new Promise((resolve) => setTimeout(resolve, Math.random() * 10 * attempt));
    current = await reload();
  }
}

export async function updateContact(ports: Ports, session: AccountSession, id: string, payload: ContactPayload): Promise<Contact> {
  const current = await loadVisibleContact(ports, session, id);
  const service = await getServiceItem(ports.table, session.accountId, current.serviceId);
  const serviceType = service?.channelType ?? 'whatsapp';
  const original = {
    serviceId: current.serviceId,
    idFromService: current.idFromService,
    data: { email: current.email, phoneNumber: current.phoneNumber, phoneCountry: current.phoneCountry },
  };
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
    await writeTogether(ports.table, {
      seat: archive
        ? releaseSeatStep(session.accountId, 'contactsCount')
        : takeSeatStep(session.accountId, 'contactsCount', effectiveLimits(account.plan).contacts),
      contact: replaceIfUnchangedStep(next, current.updatedAt),
    });
  } catch (error) {
    if (refusedBy(error, 'seat') && !archive) throw fail.limit(errorTexts.contactOrUserLimit);
    if (refusedBy(error, 'seat', 'contact')) throw changedMeanwhile();
    throw error;
  }
  return present(ports, next);
}

export async function deleteContact(ports: Ports, session: AccountSession, id: string): Promise<void> {
  const current = await loadVisibleContact(ports, session, id);
  const now = ports.clock();
  const deletedAt = nextUpdatedAt(now, current.updatedAt);
  await writeTogether(ports.table, {
    contact: deleteContactIfUnchangedStep(current),
    channelId: releaseChannelIdStep(current),
    ...Object.fromEntries((current.channelAliases ?? []).map((alias, i) => [`channelAlias${i}`, releaseChannelAliasStep(current, alias)])),
    // Its conversation, files and avatar go too, in the background (./contact-purge.ts).
    tombstone: contactTombstoneStep(session.accountId, id, deletedAt, Math.floor(now.getTime() / 1000) + tombstoneLifetimeSeconds, {
      avatarKey: current.avatarKey ?? null,
    }),
    seat: !current.archivedAt && releaseSeatStep(session.accountId, 'contactsCount'),
  });
}

/**
 * Opening a conversation: the contact has no unread messages any more, and the customer's messages
 * are marked read on the channel when the connection sends read receipts (./read-receipts.ts).
 */
export async function markContactRead(ports: Ports, session: AccountSession, id: string): Promise<Contact> {
  const current = await loadVisibleContact(ports, session, id);
  if (current.unread === 0) return present(ports, current);
  const [cleared, service] = await Promise.all([
    clearUnread(ports.table, current, nextUpdatedAt(ports.clock(), current.updatedAt)),
    getServiceItem(ports.table, current.accountId, current.serviceId),
  ]);
  await queueReadReceipts(ports, current, service);
  return presentContact(cleared, service, ports.storage.downloadUrl);
}
