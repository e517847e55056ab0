import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Contact } from '#contracts/contacts.ts';
import { api } from '#web/lib/api-client.ts';

/** GET /contacts/{id}: the contact of the open conversation. */
export function getContact(id: string, signal?: AbortSignal): Promise<Contact> {
  return api.get<Contact>(`/contacts/${encodeURIComponent(id)}`, { signal });
}

export function contactQueryOptions(id: string) {
  return queryOptions({ queryKey: ['contacts', 'detail', id], queryFn: ({ signal }) => getContact(id, signal) });
}

export function useContact(id: string | undefined, placeholder?: Contact) {
  return useQuery({ ...contactQueryOptions(id ?? ''), enabled: !!id, placeholderData: placeholder });
}
