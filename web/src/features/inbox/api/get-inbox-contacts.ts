import { infiniteQueryOptions, useInfiniteQuery, type InfiniteData, type QueryClient } from '@tanstack/react-query';
import type { Contact } from '#contracts/contacts.ts';
import type { ConversationStatus, InboxTab } from '#contracts/conversations.ts';
import type { ListAnswer } from '#contracts/entities.ts';
import { containsPattern, listQueryString, type Where } from '#contracts/list-query.ts';
import type { ServiceType } from '#contracts/services.ts';
import { api } from '#web/lib/api-client.ts';
import { fold } from '#web/lib/format.ts';
import { newer, shareItemsById } from '#web/lib/list-cache.ts';
import { contactKeys } from '#web/api/keys.ts';

/** The left pane's filters: a tab ('Meus', 'Não atribuídos', 'Todos'), a status, a search and the advanced filters. */
export interface InboxFilters {
  tab: InboxTab;
  /** '' for every status. */
  status: '' | ConversationStatus;
  search: string;
  serviceId: string;
  serviceType: '' | ServiceType;
  /** A department id, `none` for the conversations of no department, '' for any. */
  departmentId: string;
  /** A tag id: the conversations carrying it ('' for any). */
  tagId: string;
  /** Show archived contacts too. */
  archived: boolean;
  /** The signed-in user's id: who 'Meus' means (part of the filters so a list's cache key names it). */
  me: string;
}

export const emptyInboxFilters: InboxFilters = {
  tab: 'all',
  status: '',
  search: '',
  serviceId: '',
  serviceType: '',
  departmentId: '',
  tagId: '',
  archived: false,
  me: '',
};

/** The department filter's value for the conversations of no department (the general queue). */
export const noDepartment = 'none';
export const inboxPageSize = 50;
export const inboxContactIncludes = ['service', 'lastMessage', 'avatar', 'user', 'department', 'tags'];

/**
 * The filters every tab shares (docs/product.md#lists-and-calls: like on name and data.email, archivedAt null unless
 * archived are shown, serviceId, service type; docs/product.md#team-inbox: department and tag). It is also the
 * counts' `where`, so the badges count what the list would show in each tab and status.
 */
export function inboxSharedWhere(filters: InboxFilters): Where {
  const where: Where = {};
  const search = filters.search.trim();
  if (search) where.or = [{ name: { like: containsPattern(search) } }, { 'data.email': { like: containsPattern(search) } }];
  if (!filters.archived) where.archivedAt = null;
  if (filters.serviceId) where.serviceId = filters.serviceId;
  if (filters.serviceType) where['service.type'] = filters.serviceType;
  if (filters.departmentId) where.departmentId = filters.departmentId === noDepartment ? null : filters.departmentId;
  if (filters.tagId) where.tags = filters.tagId;
  return where;
}

/** The list's `where`: the shared filters, the tab's assignee (docs/api.md, "List filters") and the status. */
export function inboxContactsWhere(filters: InboxFilters): Where {
  const where = inboxSharedWhere(filters);
  if (filters.tab === 'mine') where.userId = filters.me;
  if (filters.tab === 'unassigned') where.userId = null;
  if (filters.status) where.status = filters.status;
  return where;
}

/** The API path of one page of the inbox list (also what the shell asks for before the app loads: app/route-data.ts). */
export function inboxContactsPath(filters: InboxFilters, after: string | null): string {
  const query = { where: inboxContactsWhere(filters), include: inboxContactIncludes, ...(after ? { after } : {}), perPage: inboxPageSize, withCount: true };
  return `/contacts${listQueryString(query)}`;
}

/** GET /contacts?query=...: one page of the inbox list, most recent conversation first; `after` the previous page's `nextCursor`. */
export function getInboxContacts(filters: InboxFilters, after: string | null, signal?: AbortSignal): Promise<ListAnswer<Contact>> {
  return api.get<ListAnswer<Contact>>(inboxContactsPath(filters, after), { signal });
}

export function inboxContactsQueryOptions(filters: InboxFilters) {
  return infiniteQueryOptions({
    queryKey: contactKeys.inbox(filters),
    // Rows are memoised on their item: keep each unchanged item's object even when it moves.
    structuralSharing: shareItemsById,
    queryFn: ({ pageParam, signal }) => getInboxContacts(filters, pageParam, signal),
    // By cursor: the next page starts after the last row the server sent, whatever moved meanwhile.
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
}

export function useInboxContacts(filters: InboxFilters) {
  return useInfiniteQuery(inboxContactsQueryOptions(filters));
}

/** Whether a contact belongs to a list with these filters (the server's rules, for realtime updates). */
export function matchesInboxFilters(contact: Contact, filters: InboxFilters): boolean {
  if (filters.tab === 'mine' && contact.userId !== filters.me) return false;
  if (filters.tab === 'unassigned' && contact.userId) return false;
  if (filters.status && contact.status !== filters.status) return false;
  if (filters.departmentId && (contact.departmentId ?? noDepartment) !== filters.departmentId) return false;
  if (filters.tagId && !contact.tags.includes(filters.tagId)) return false;
  if (!filters.archived && contact.archivedAt) return false;
  if (filters.serviceId && contact.serviceId !== filters.serviceId) return false;
  if (filters.serviceType && contact.service?.type !== filters.serviceType) return false;
  const search = fold(filters.search.trim());
  if (search && !fold(contact.name).includes(search) && !fold(contact.data.email ?? '').includes(search)) return false;
  return true;
}

/** Made on the first comparison (a realtime event), not as the inbox's code loads. */
let collator: Intl.Collator | undefined;

/** The list order: last message first (contacts without one last), then by name. */
export function compareContacts(a: Contact, b: Contact): number {
  const at = a.lastMessageAt ?? '';
  const bt = b.lastMessageAt ?? '';
  if (at !== bt) return at > bt ? -1 : 1;
  collator ??= new Intl.Collator('pt-BR', { sensitivity: 'base', numeric: true });
  return collator.compare(a.name, b.name);
}

type Pages = InfiniteData<ListAnswer<Contact>, string | null>;

/** Places a changed contact in one cached inbox list: moved to its place, added, or removed. */
export function placeContact(data: Pages, contact: Contact, filters: InboxFilters): Pages {
  let previous: Contact | undefined;
  const pages = data.pages.map((page) => {
    const found = page.data.find((c) => c.id === contact.id);
    if (!found) return page;
    previous = found;
    return { ...page, data: page.data.filter((c) => c.id !== contact.id) };
  });
  const item = previous ? newer(previous, contact) : contact;
  const belongs = matchesInboxFilters(item, filters);
  const countDelta = (belongs ? 1 : 0) - (previous ? 1 : 0);
  if (belongs) {
    const last = pages[pages.length - 1];
    const loaded = pages.reduce((n, p) => n + p.data.length, 0);
    const complete = !last || loaded + (previous ? 1 : 0) >= (last.totalCount ?? 0);
    let placed = false;
    for (let i = 0; i < pages.length && !placed; i++) {
      const page = pages[i]!;
      const at = page.data.findIndex((c) => compareContacts(item, c) < 0);
      if (at >= 0) {
        pages[i] = { ...page, data: [...page.data.slice(0, at), item, ...page.data.slice(at)] };
        placed = true;
      }
    }
    if (!placed && complete && pages.length) {
      const i = pages.length - 1;
      pages[i] = { ...pages[i]!, data: [...pages[i]!.data, item] };
    }
  }
  return { ...data, pages: pages.map((p) => ({ ...p, totalCount: Math.max(0, p.totalCount + countDelta) })) };
}

/** Realtime: a created or updated contact finds its place in every cached inbox list. */
export function applyContactToInbox(client: QueryClient, contact: Contact): void {
  for (const query of client.getQueryCache().findAll({ queryKey: contactKeys.inboxes() })) {
    const data = query.state.data as Pages | undefined;
    const filters = query.queryKey[2] as InboxFilters | undefined;
    if (!data || !filters) continue;
    client.setQueryData(query.queryKey, placeContact(data, contact, filters));
  }
}
