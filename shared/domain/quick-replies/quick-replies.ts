/**
 * Quick replies (docs/product.md#team-inbox): the account's saved texts, each with a unique shortcut. Everyone in the
 * account reads them and fills one for a contact they see; admins manage them.
 */
import type { ListAnswer } from '#contracts/entities.ts';
import type { ListQuery } from '#contracts/list-query.ts';
import { fillVariables, variableValues, type QuickReply, type QuickReplyPayload } from '#contracts/quick-replies.ts';
import type { CatalogueFields, CatalogueItem } from '#db/catalogues.ts';
import { catalogue } from '../catalogue.ts';
import { loadVisibleContact } from '../conversations/visibility.ts';
import { applyListQuery, type ListRules } from '../list-query.ts';
import type { Ports } from '../ports.ts';
import type { AccountSession } from '../session.ts';

interface QuickReplyFields extends CatalogueFields {
  shortcut: string;
  text: string;
}
type QuickReplyItem = CatalogueItem<QuickReplyFields>;

export const quickReplyListRules: ListRules = {
  fields: ['id', 'shortcut', 'text', 'createdAt', 'updatedAt'],
  defaultOrder: [['shortcut', 'ASC']],
};

const quickReplies = catalogue<QuickReplyFields>({ kind: 'quickReply', uniqueField: 'shortcut', takenText: 'Já existe uma resposta rápida com este atalho' });

function toQuickReply(item: QuickReplyItem): QuickReply {
  return { id: item.id, shortcut: item.shortcut, text: item.text, createdAt: item.createdAt, updatedAt: item.updatedAt };
}

export async function listQuickReplies(ports: Ports, session: AccountSession, q: ListQuery): Promise<ListAnswer<QuickReply>> {
  return applyListQuery((await quickReplies.all(ports, session.accountId)).map(toQuickReply), q);
}

export async function createQuickReply(ports: Ports, session: AccountSession, payload: QuickReplyPayload): Promise<QuickReply> {
  return toQuickReply(await quickReplies.create(ports, session, { unique: payload.shortcut, shortcut: payload.shortcut, text: payload.text }));
}

export async function updateQuickReply(ports: Ports, session: AccountSession, id: string, payload: QuickReplyPayload): Promise<QuickReply> {
  const current = await quickReplies.load(ports, session, id);
  return toQuickReply(await quickReplies.replace(ports, current, { unique: payload.shortcut, shortcut: payload.shortcut, text: payload.text }));
}

export async function deleteQuickReply(ports: Ports, session: AccountSession, id: string): Promise<void> {
  await quickReplies.remove(ports, await quickReplies.load(ports, session, id));
}

/** The quick reply's text with its variables filled from a contact the caller sees and from the caller. */
export async function renderQuickReply(ports: Ports, session: AccountSession, id: string, contactId: string): Promise<{ text: string }> {
  const [reply, contact] = await Promise.all([quickReplies.load(ports, session, id), loadVisibleContact(ports, session, contactId)]);
  const values = variableValues({
    contact: { name: contact.name, data: { phoneNumber: contact.phoneNumber, email: contact.email } },
    agent: { name: session.user.name },
  });
  return { text: fillVariables(reply.text, values) };
}
