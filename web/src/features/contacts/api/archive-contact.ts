import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Contact } from '#contracts/contacts.ts';
import { api } from '#web/lib/api-client.ts';
import { contactKeys } from '#web/api/keys.ts';

/** POST /contacts/{id}/archive: admins unarchive with archive false (402 when no seat is free). */
export function archiveContact(id: string, archive: boolean): Promise<Contact> {
  return api.post<Contact>(`/contacts/${encodeURIComponent(id)}/archive`, { archive });
}

export function useArchiveContact() {
  const client = useQueryClient();
  return useMutation({
    mutationKey: [...contactKeys.all, 'archive'],
    mutationFn: ({ id, archive }: { id: string; archive: boolean }) => archiveContact(id, archive),
    onSuccess: () => client.invalidateQueries({ queryKey: contactKeys.all }),
  });
}
