import { useMutation } from '@tanstack/react-query';
import { api } from '#web/lib/api-client.ts';

/** POST /contacts/{id}/read: opening a conversation clears its unread count. */
export function markContactRead(contactId: string): Promise<unknown> {
  return api.post(`/contacts/${encodeURIComponent(contactId)}/read`);
}

export function useMarkContactRead() {
  return useMutation({ mutationKey: ['contacts', 'read'], mutationFn: markContactRead, meta: { silent: true } });
}
