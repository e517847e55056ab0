import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ScheduledMessage } from '#contracts/scheduled-messages.ts';
import { api } from '#web/lib/api-client.ts';
import { scheduledMessageKeys } from '#web/api/keys.ts';
import { applyScheduledMessage } from './get-scheduled-messages.ts';

/** POST /scheduled-messages/{id}/cancel: nothing more of it is sent. */
export function useCancelScheduledMessage() {
  const client = useQueryClient();
  return useMutation({
    mutationKey: [...scheduledMessageKeys.all, 'cancel'],
    mutationFn: ({ id, contactId }: { id: string; contactId: string }) =>
      api.post<ScheduledMessage>(`/scheduled-messages/${encodeURIComponent(id)}/cancel`, { contactId }),
    onSuccess: (cancelled) => applyScheduledMessage(client, cancelled),
  });
}
