/**
 * Tags (issue 14): the account's palette of named, coloured tags, managed by admins; anyone who
 * sees a conversation tags and untags its contact. Contacts keep tag ids (`tags`). Deleting a tag
 * does not rewrite the contacts that carry it (up to 25,000): their `tags` may keep its id, which
 * clients drop since GET /tags no longer lists it, and which the next tagging of the contact removes.
 */
import type { Contact } from '#contracts/contacts.ts';
import type { ListAnswer } from '#contracts/entities.ts';
import { errorTexts } from '#contracts/errors.ts';
import type { ListQuery } from '#contracts/list-query.ts';
import type { Tag, TagPayload } from '#contracts/tags.ts';
import {
  catalogueItem,
  createCatalogueItem,
  deleteCatalogueItem,
  getCatalogueItem,
  listCatalogue,
  replaceCatalogueItem,
  type CatalogueFields,
  type CatalogueItem,
} from '#db/catalogues.ts';
import { getServiceItem } from '#db/services.ts';
import { refusalError } from '../catalogue-refusals.ts';
import { loadVisibleContact } from '../conversations/visibility.ts';
import { replaceContact } from '../contacts/contacts.ts';
import { presentContact } from '../contacts/present-contact.ts';
import { fail } from '../errors.ts';
import { applyListQuery, fold, type ListRules } from '../list-query.ts';
import type { Ports } from '../ports.ts';
import type { AccountSession } from '../session.ts';

interface TagFields extends CatalogueFields {
  name: string;
  color: string;
}
type TagItem = CatalogueItem<TagFields>;

export const tagListRules: ListRules = {
  fields: ['id', 'name', 'color', 'createdAt', 'updatedAt'],
  defaultOrder: [['name', 'ASC']],
};

const nameTaken = 'Já existe uma etiqueta com este nome';

function toTag(item: TagItem): Tag {
  return { id: item.id, name: item.name, color: item.color, createdAt: item.createdAt, updatedAt: item.updatedAt };
}

export async function listTags(ports: Ports, session: AccountSession, q: ListQuery): Promise<ListAnswer<Tag>> {
  const items = await listCatalogue<TagFields>(ports.table, 'tag', session.accountId);
  return applyListQuery(items.map(toTag), q);
}

async function loadTag(ports: Ports, session: AccountSession, id: string): Promise<TagItem> {
  const item = await getCatalogueItem<TagFields>(ports.table, 'tag', session.accountId, id);
  if (!item) throw fail.notFound();
  return item;
}

export async function createTag(ports: Ports, session: AccountSession, payload: TagPayload): Promise<Tag> {
  const now = ports.clock().toISOString();
  const item = catalogueItem<TagFields>('tag', {
    id: ports.newId(),
    accountId: session.accountId,
    unique: fold(payload.name),
    name: payload.name,
    color: payload.color,
    createdAt: now,
    updatedAt: now,
  });
  const refusal = await createCatalogueItem(ports.table, 'tag', item);
  if (refusal) throw refusalError(refusal, 'name', nameTaken);
  return toTag(item);
}

export async function updateTag(ports: Ports, session: AccountSession, id: string, payload: TagPayload): Promise<Tag> {
  const current = await loadTag(ports, session, id);
  const next = catalogueItem<TagFields>('tag', {
    ...current,
    name: payload.name,
    unique: fold(payload.name),
    color: payload.color,
    updatedAt: ports.clock().toISOString(),
  });
  const refusal = await replaceCatalogueItem(ports.table, 'tag', current, next);
  if (refusal) throw refusalError(refusal, 'name', nameTaken);
  return toTag(next);
}

export async function deleteTag(ports: Ports, session: AccountSession, id: string): Promise<void> {
  const current = await loadTag(ports, session, id);
  const refusal = await deleteCatalogueItem(ports.table, 'tag', current);
  if (refusal) throw refusalError(refusal, 'name', nameTaken);
}

/** Sets a contact's tags (the whole set); each must be one of the account's. */
export async function setContactTags(ports: Ports, session: AccountSession, contactId: string, tagIds: string[]): Promise<Contact> {
  const [current, palette] = await Promise.all([
    loadVisibleContact(ports, session, contactId),
    listCatalogue<TagFields>(ports.table, 'tag', session.accountId),
  ]);
  const known = new Set(palette.map((t) => t.id));
  const problems = tagIds.flatMap((id, i) => (known.has(id) ? [] : [{ path: `tagIds.${i}`, message: 'Etiqueta não encontrada' }]));
  if (problems.length) throw fail.invalid(errorTexts.invalidParams, problems);
  const next = await replaceContact(ports, current, { tagIds });
  return presentContact(next, await getServiceItem(ports.table, next.accountId, next.serviceId), ports.storage.downloadUrl);
}
