import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ScheduledMessage, ScheduleMessagePayload } from '#contracts/scheduled-messages.ts';
import { api } from '#web/lib/api-client.ts';
import { scheduledMessageKeys } from '#web/api/keys.ts';
import { applyScheduledMessage } from './get-scheduled-messages.ts';

/** POST /scheduled-messages, or PUT /scheduled-messages/{id} with an id. */
export function useSaveScheduledMessage(id: string | undefined) {
  const client = useQueryClient();
  return useMutation({
    mutationKey: [...scheduledMessageKeys.all, 'save', id ?? 'new'],
    mutationFn: (payload: ScheduleMessagePayload) =>
      id ? api.put<ScheduledMessage>(`/scheduled-messages/${encodeURIComponent(id)}`, payload) : api.post<ScheduledMessage>('/scheduled-messages', payload),
    onSuccess: (saved) => applyScheduledMessage(client, saved),
  });
}
