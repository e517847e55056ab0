/**
 * Tags (docs/product.md#team-inbox): the account's palette of named, coloured tags, managed by admins; anyone who
 * sees a conversation tags and untags its contact. Contacts keep tag ids (`tags`). Deleting a tag
 * does not rewrite the contacts that carry it (up to 25,000): their `tags` may keep its id, which
 * clients drop since GET /tags no longer lists it, and which the next tagging of the contact removes.
 */
import type { Contact } from '#contracts/contacts.ts';
import type { ListAnswer } from '#contracts/entities.ts';
import { errorTexts } from '#contracts/errors.ts';
import type { ListQuery } from '#contracts/list-query.ts';
import type { Tag, TagPayload } from '#contracts/tags.ts';
import type { CatalogueFields, CatalogueItem } from '#db/catalogues.ts';
import { getServiceItem } from '#db/services.ts';
import { catalogue } from '../catalogue.ts';
import { loadVisibleContact } from '../conversations/visibility.ts';
import { replaceContactBlind } from '../contacts/contacts.ts';
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

const tags = catalogue<TagFields>({ kind: 'tag', uniqueField: 'name', takenText: 'Já existe uma etiqueta com este nome' });

function toTag(item: TagItem): Tag {
  return { id: item.id, name: item.name, color: item.color, createdAt: item.createdAt, updatedAt: item.updatedAt };
}

export async function listTags(ports: Ports, session: AccountSession, q: ListQuery): Promise<ListAnswer<Tag>> {
  return applyListQuery((await tags.all(ports, session.accountId)).map(toTag), q);
}

export async function createTag(ports: Ports, session: AccountSession, payload: TagPayload): Promise<Tag> {
  return toTag(await tags.create(ports, session, { unique: fold(payload.name), name: payload.name, color: payload.color }));
}

export async function updateTag(ports: Ports, session: AccountSession, id: string, payload: TagPayload): Promise<Tag> {
  const current = await tags.load(ports, session, id);
  return toTag(await tags.replace(ports, current, { name: payload.name, unique: fold(payload.name), color: payload.color }));
}

export async function deleteTag(ports: Ports, session: AccountSession, id: string): Promise<void> {
  await tags.remove(ports, await tags.load(ports, session, id));
}

/** Sets a contact's tags (the whole set); each must be one of the account's. */
export async function setContactTags(ports: Ports, session: AccountSession, contactId: string, tagIds: string[]): Promise<Contact> {
  const [current, palette] = await Promise.all([loadVisibleContact(ports, session, contactId), tags.all(ports, session.accountId)]);
  const known = new Set(palette.map((t) => t.id));
  const problems = tagIds.flatMap((id, i) => (known.has(id) ? [] : [{ path: `tagIds.${i}`, message: 'Etiqueta não encontrada' }]));
  if (problems.length) throw fail.invalid(errorTexts.invalidParams, problems);
  const next = await replaceContactBlind(ports, current, () => loadVisibleContact(ports, session, contactId), { tagIds });
  return presentContact(next, await getServiceItem(ports.table, next.accountId, next.serviceId), ports.storage.downloadUrl);
}
