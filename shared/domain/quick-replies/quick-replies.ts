/**
 * Quick replies (issue 14): the account's saved texts, each with a unique shortcut. Everyone in the
 * account reads them and fills one for a contact they see; admins manage them.
 */
import type { ListAnswer } from '#contracts/entities.ts';
import type { ListQuery } from '#contracts/list-query.ts';
import { fillVariables, variableValues, type QuickReply, type QuickReplyPayload } from '#contracts/quick-replies.ts';
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
import { refusalError } from '../catalogue-refusals.ts';
import { loadVisibleContact } from '../conversations/visibility.ts';
import { fail } from '../errors.ts';
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

const shortcutTaken = 'Já existe uma resposta rápida com este atalho';

function toQuickReply(item: QuickReplyItem): QuickReply {
  return { id: item.id, shortcut: item.shortcut, text: item.text, createdAt: item.createdAt, updatedAt: item.updatedAt };
}

export async function listQuickReplies(ports: Ports, session: AccountSession, q: ListQuery): Promise<ListAnswer<QuickReply>> {
  const items = await listCatalogue<QuickReplyFields>(ports.table, 'quickReply', session.accountId);
  return applyListQuery(items.map(toQuickReply), q);
}

async function loadQuickReply(ports: Ports, session: AccountSession, id: string): Promise<QuickReplyItem> {
  const item = await getCatalogueItem<QuickReplyFields>(ports.table, 'quickReply', session.accountId, id);
  if (!item) throw fail.notFound();
  return item;
}

export async function createQuickReply(ports: Ports, session: AccountSession, payload: QuickReplyPayload): Promise<QuickReply> {
  const now = ports.clock().toISOString();
  const item = catalogueItem<QuickReplyFields>('quickReply', {
    id: ports.newId(),
    accountId: session.accountId,
    unique: payload.shortcut,
    shortcut: payload.shortcut,
    text: payload.text,
    createdAt: now,
    updatedAt: now,
  });
  const refusal = await createCatalogueItem(ports.table, 'quickReply', item);
  if (refusal) throw refusalError(refusal, 'shortcut', shortcutTaken);
  return toQuickReply(item);
}

export async function updateQuickReply(ports: Ports, session: AccountSession, id: string, payload: QuickReplyPayload): Promise<QuickReply> {
  const current = await loadQuickReply(ports, session, id);
  const next = catalogueItem<QuickReplyFields>('quickReply', {
    ...current,
    unique: payload.shortcut,
    shortcut: payload.shortcut,
    text: payload.text,
    updatedAt: ports.clock().toISOString(),
  });
  const refusal = await replaceCatalogueItem(ports.table, 'quickReply', current, next);
  if (refusal) throw refusalError(refusal, 'shortcut', shortcutTaken);
  return toQuickReply(next);
}

export async function deleteQuickReply(ports: Ports, session: AccountSession, id: string): Promise<void> {
  const current = await loadQuickReply(ports, session, id);
  const refusal = await deleteCatalogueItem(ports.table, 'quickReply', current);
  if (refusal) throw refusalError(refusal, 'shortcut', shortcutTaken);
}

/** The quick reply's text with its variables filled from a contact the caller sees and from the caller. */
export async function renderQuickReply(ports: Ports, session: AccountSession, id: string, contactId: string): Promise<{ text: string }> {
  const [reply, contact] = await Promise.all([loadQuickReply(ports, session, id), loadVisibleContact(ports, session, contactId)]);
  const values = variableValues({
    contact: { name: contact.name, data: { phoneNumber: contact.phoneNumber, email: contact.email } },
    agent: { name: session.user.name },
  });
  return { text: fillVariables(reply.text, values) };
}
