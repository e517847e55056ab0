import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Contact } from '#contracts/contacts.ts';
import { api } from '#web/lib/api-client.ts';
import { contactKeys } from '#web/api/keys.ts';

/** DELETE /contacts/{id}/opt-out: an admin makes the contact receive campaigns again (ADR-0225). */
export function useClearOptOut() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.delete<Contact>(`/contacts/${encodeURIComponent(id)}/opt-out`),
    onSuccess: (contact) => {
      client.setQueryData(contactKeys.detail(contact.id), contact);
      return client.invalidateQueries({ queryKey: contactKeys.all });
    },
  });
}
