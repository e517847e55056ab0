import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Contact } from '#contracts/contacts.ts';
import { api } from '#web/lib/api-client.ts';
import { contactKeys } from '#web/api/keys.ts';

/** PUT /contacts/{id}/tags: the contact's tags, replaced whole. */
export function useSaveContactTags() {
  const client = useQueryClient();
  return useMutation({
    mutationKey: [...contactKeys.all, 'tags'],
    mutationFn: ({ id, tagIds }: { id: string; tagIds: string[] }) => api.put<Contact>(`/contacts/${encodeURIComponent(id)}/tags`, { tagIds }),
    onSuccess: () => client.invalidateQueries({ queryKey: contactKeys.all }),
  });
}
