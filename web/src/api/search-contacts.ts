import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { Contact } from '#contracts/contacts.ts';
import type { ListAnswer } from '#contracts/entities.ts';
import { containsPattern, listQueryString, type ListQueryInput } from '#contracts/list-query.ts';
import { api } from '#web/lib/api-client.ts';
import { contactKeys } from './keys.ts';

/**
 * GET /contacts: the first `perPage` contacts whose name holds `name` (all when blank), by name, with
 * their connection. For pickers outside the contacts screen (the inbox's 'Encaminhar'); kept live by
 * the contact events like the contacts table's pages.
 */
export function useContactSearch(name: string, perPage: number) {
  const trimmed = name.trim();
  const query: ListQueryInput = {
    where: trimmed ? { name: { like: containsPattern(trimmed) } } : {},
    include: ['service'],
    order: [['name', 'ASC']],
    page: 0,
    perPage,
  };
  return useQuery({
    queryKey: contactKeys.list(query),
    queryFn: ({ signal }) => api.get<ListAnswer<Contact>>(`/contacts${listQueryString(query)}`, { signal }),
    placeholderData: keepPreviousData,
  });
}
