import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { Contact } from '#contracts/contacts.ts';
import type { ListAnswer } from '#contracts/entities.ts';
import { listQueryString, type ListQueryInput } from '#contracts/list-query.ts';
import { api } from '#web/lib/api-client.ts';
import { contactKeys } from '#web/api/keys.ts';
import { contactWhere, type ContactFilters } from '#web/features/contacts/contact-filters.ts';

export { emptyContactFilters } from '#web/features/contacts/contact-filters.ts';

export function contactsQuery(filters: ContactFilters, page: number, perPage: number): ListQueryInput {
  return { where: contactWhere(filters), include: ['service', 'avatar'], order: [['name', 'ASC']], page, perPage, withCount: true };
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
