import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Contact } from '#contracts/contacts.ts';
import { api } from '#web/lib/api-client.ts';
import { keepNewerItem } from '#web/lib/list-cache.ts';
import { contactKeys } from './keys.ts';

/**
 * GET /contacts/{id}: one contact, kept live by the contact events. Shared by the inbox (the open
 * conversation) and the contacts screen (the edit modal), which must not import each other.
 */
export function getContact(id: string, signal?: AbortSignal): Promise<Contact> {
  return api.get<Contact>(`/contacts/${encodeURIComponent(id)}`, { signal });
}

/** A refetch answered after a take, a transfer or a realtime event never puts the older contact back (`keepNewerItem`). */
export function contactQueryOptions(id: string) {
  return queryOptions({ queryKey: contactKeys.detail(id), queryFn: ({ signal }) => getContact(id, signal), structuralSharing: keepNewerItem });
}

export function useContact(id: string | undefined) {
  return useQuery({ ...contactQueryOptions(id ?? ''), enabled: !!id });
}
