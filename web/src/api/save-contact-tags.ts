import { partialMatchKey, useMutation, useQueryClient } from '@tanstack/react-query';
import type { Contact } from '#contracts/contacts.ts';
import { api } from '#web/lib/api-client.ts';
import { replaceEverywhere } from '#web/lib/list-cache.ts';
import { contactKeys } from './keys.ts';

/**
 * PUT /contacts/{id}/tags: the contact's tags, replaced whole. Shared by the contacts list (a row's
 * picker) and the inbox (the conversation's header). The answer replaces every cached copy; the
 * paged contact lists are refetched too (a tag filter may now match or not), the inbox lists not
 * (they do not filter on tags, and the answer is in them already).
 */
export function useSaveContactTags() {
  const client = useQueryClient();
  return useMutation({
    mutationKey: [...contactKeys.all, 'tags'],
    mutationFn: ({ id, tagIds }: { id: string; tagIds: string[] }) => api.put<Contact>(`/contacts/${encodeURIComponent(id)}/tags`, { tagIds }),
    onSuccess: (contact) => {
      replaceEverywhere(client, contactKeys.all, contact);
      void client.invalidateQueries({
        queryKey: contactKeys.all,
        predicate: (query) => !partialMatchKey(query.queryKey, contactKeys.inboxes()) && !partialMatchKey(query.queryKey, contactKeys.detail(contact.id)),
      });
    },
  });
}
