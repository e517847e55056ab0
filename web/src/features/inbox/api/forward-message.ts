import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ForwardMessagePayload, Message } from '#contracts/messages.ts';
import { api } from '#web/lib/api-client.ts';
import { messageKeys } from '#web/api/keys.ts';
import { applyMessage } from './get-messages.ts';

/** POST /messages/{id}/forward: a new message to each contact, stored with ack 0; the channels' answers come by realtime. */
export function forwardMessage(id: string, payload: ForwardMessagePayload): Promise<{ data: Message[] }> {
  return api.post<{ data: Message[] }>(`/messages/${encodeURIComponent(id)}/forward`, payload);
}

/** Refusals (400 with details) are the dialog's to show: silent, other errors go to the error modal from there. */
export function useForwardMessage() {
  const client = useQueryClient();
  return useMutation({
    mutationKey: [...messageKeys.all, 'forward'],
    mutationFn: ({ id, payload }: { id: string; payload: ForwardMessagePayload }) => forwardMessage(id, payload),
    onSuccess: (answer) => {
      for (const message of answer.data) applyMessage(client, message);
    },
    meta: { silent: true },
  });
}
