import { useMutation } from '@tanstack/react-query';
import { api } from '#web/lib/api-client.ts';
import { contactKeys } from '#web/api/keys.ts';

/** POST /contacts/{id}/read: opening a conversation clears its unread count. */
export function markContactRead(contactId: string): Promise<unknown> {
  return api.post(`/contacts/${encodeURIComponent(contactId)}/read`);
}

export function useMarkContactRead() {
  return useMutation({ mutationKey: [...contactKeys.all, 'read'], mutationFn: markContactRead, meta: { silent: true } });
}
