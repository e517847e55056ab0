/**
 * The inbox's tabs and counts (docs/product.md#team-inbox) and the account's inbox setting. Counts come from the
 * contact directory like the list itself, narrowed to what the caller sees, so they agree with it.
 */
import { conversationStatuses, inboxTabs, type InboxCounts, type InboxSettings, type InboxTab } from '#contracts/conversations.ts';
import type { ListQuery, Where } from '#contracts/list-query.ts';
import { getAccountItem, writeInboxSettings } from '#db/accounts.ts';
import { listContacts } from '../contacts/contacts.ts';
import { fail } from '../errors.ts';
import type { Ports } from '../ports.ts';
import type { AccountSession } from '../session.ts';
import { viewerOf } from './visibility.ts';

export async function getInboxSettings(ports: Ports, session: AccountSession): Promise<InboxSettings> {
  const account = await getAccountItem(ports.table, session.accountId);
  if (!account) throw fail.notFound();
  return { membersSeeAll: account.inboxSettings?.membersSeeAll === true };
}

export async function updateInboxSettings(ports: Ports, session: AccountSession, settings: InboxSettings): Promise<InboxSettings> {
  const account = await writeInboxSettings(ports.table, session.accountId, { membersSeeAll: settings.membersSeeAll }, ports.clock().toISOString());
  return { membersSeeAll: account.inboxSettings?.membersSeeAll === true };
}

/** The `where` of a tab for the caller: 'Meus' is theirs, 'Não atribuídos' nobody's, 'Todos' everything they see. */
export function tabWhere(tab: InboxTab, userId: string): Where {
  return tab === 'mine' ? { userId } : tab === 'unassigned' ? { userId: null } : {};
}

/**
 * For each tab, the conversations matching the query's `where` (the inbox's other filters: a
 * connection, a department, a tag, archived or not; a `status` or `userId` in it is replaced),
 * in total and per status.
 */
export async function inboxCounts(ports: Ports, session: AccountSession, q: ListQuery): Promise<InboxCounts> {
  const { status: _status, userId: _userId, ...base } = q.where;
  void _status;
  void _userId;
  const viewer = await viewerOf(ports, session);
  // Counts only: a cursor of the list the query came with names no row here.
  const { after: _after, ...counted } = q;
  void _after;
  const count = async (where: Where) => (await listContacts(ports, session, { ...counted, where, page: 0, perPage: 1, order: [] }, viewer)).totalCount;
  const cells = inboxTabs.flatMap((tab) =>
    [undefined, ...conversationStatuses].map(async (status) => {
      const where: Where = { ...base, ...tabWhere(tab, session.user.id), ...(status ? { status } : {}) };
      return [tab, status ?? 'total', await count(where)] as const;
    }),
  );
  const counts = Object.fromEntries(inboxTabs.map((tab) => [tab, { total: 0, open: 0, pending: 0, resolved: 0 }])) as InboxCounts;
  for (const [tab, key, n] of await Promise.all(cells)) counts[tab][key] = n;
  return counts;
}
