/**
 * A contact's messages, newest first, a page at a time (SPEC: 10 a page with 'Carregar mais
 * mensagens'). The query names the contact (`where.contactId`) and may page by number or, better
 * for a growing conversation, by cursor (`where.id: { lt: <oldest id shown> }`).
 */
import { errorTexts } from '#contracts/errors.ts';
import type { ListAnswer } from '#contracts/entities.ts';
import type { ListQuery } from '#contracts/list-query.ts';
import type { Message } from '#contracts/messages.ts';
import { messagesPage } from '#db/messages.ts';
import { fail } from '../errors.ts';
import type { ListRules } from '../list-query.ts';
import type { Ports } from '../ports.ts';
import type { AccountSession } from '../session.ts';
import { loadVisibleContact } from '../conversations/visibility.ts';
import { toMessage } from './present-message.ts';

export const messageListRules: ListRules = {
  fields: ['contactId', 'id', 'timestamp', 'createdAt'],
  includes: ['file', 'thumbnail', 'user', 'quotedMessage', 'groupContact', 'contact'],
  defaultOrder: [['timestamp', 'DESC']],
};

const bad = (message: string) => fail.invalid(errorTexts.invalidParams, [{ path: 'query.where', message }]);

/**
 * How deep a page number may reach: a numbered page reads and drops every newer message first
 * (265 ms at page 400 of 20), a cursor costs one page at any depth. Screens page by cursor.
 */
export const maxMessagesSkipped = 1_000;

export async function listMessages(ports: Ports, session: AccountSession, q: ListQuery): Promise<ListAnswer<Message>> {
  const { contactId, id, ...rest } = q.where;
  if (typeof contactId !== 'string' || !contactId) throw bad('Informe o contactId');
  if (Object.keys(rest).length) throw bad('Mensagens se filtram só por contactId e id');
  let beforeId: string | undefined;
  if (id !== undefined) {
    if (typeof id !== 'object' || id === null || Array.isArray(id) || typeof (id as { lt?: unknown }).lt !== 'string' || Object.keys(id).length !== 1) {
      throw bad('id aceita só { lt: <id de uma mensagem> }');
    }
    beforeId = (id as { lt: string }).lt;
  }
  if (q.order.some(([, direction]) => direction.toUpperCase() !== 'DESC')) throw bad('Mensagens vêm das mais recentes para as mais antigas');
  if (beforeId === undefined && q.page * q.perPage > maxMessagesSkipped) {
    throw fail.invalid(errorTexts.invalidParams, [
      {
        path: 'query.page',
        message: `Números de página alcançam as ${maxMessagesSkipped} mensagens mais recentes; as anteriores vão por cursor (where.id: { lt: <id da mais antiga exibida> })`,
      },
    ]);
  }
  // The page is read alongside the contact; it is only answered if the contact is the caller's.
  const [contact, items] = await Promise.all([
    loadVisibleContact(ports, session, contactId),
    messagesPage(ports.table, session.accountId, contactId, { limit: q.perPage, beforeId, skip: beforeId ? 0 : q.page * q.perPage }),
  ]);
  return {
    data: await Promise.all(items.map((item) => toMessage(item, ports.storage.downloadUrl))),
    totalCount: contact.messagesCount ?? items.length,
  };
}
