import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { Contact } from '#contracts/contacts.ts';
import type { ListAnswer } from '#contracts/entities.ts';
import { containsPattern, listQueryString, type ListQueryInput, type Where } from '#contracts/list-query.ts';
import { api } from '#web/lib/api-client.ts';
import { contactKeys } from '#web/api/keys.ts';

export interface ContactFilters {
  name: string;
  email: string;
  /** A tag id: the contacts carrying it ('' for any). */
  tagId: string;
}

/** The table's filters as it opens: none. */
export const emptyContactFilters: ContactFilters = { name: '', email: '', tagId: '' };

export function contactsQuery(filters: ContactFilters, page: number, perPage: number): ListQueryInput {
  const where: Where = {};
  if (filters.name.trim()) where.name = { like: containsPattern(filters.name.trim()) };
  if (filters.email.trim()) where['data.email'] = { like: containsPattern(filters.email.trim()) };
  if (filters.tagId) where.tags = filters.tagId;
  return { where, include: ['service', 'avatar'], order: [['name', 'ASC']], page, perPage, withCount: true };
}

/** The API path of one page of the contacts table (also what the shell asks for before the app loads: app/route-data.ts). */
export function contactsPath(query: ListQueryInput): string {
  return `/contacts${listQueryString(query)}`;
}

/** GET /contacts?query=...: one page of the contacts table. */
export function getContacts(query: ListQueryInput, signal?: AbortSignal): Promise<ListAnswer<Contact>> {
  return api.get<ListAnswer<Contact>>(contactsPath(query), { signal });
}

export function contactsQueryOptions(query: ListQueryInput) {
  return queryOptions({ queryKey: contactKeys.list(query), queryFn: ({ signal }) => getContacts(query, signal), placeholderData: keepPreviousData });
}

export function useContacts(query: ListQueryInput) {
  return useQuery(contactsQueryOptions(query));
}
