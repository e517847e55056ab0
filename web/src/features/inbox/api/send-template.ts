import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Message } from '#contracts/messages.ts';
import type { TemplateSend } from '#contracts/templates.ts';
import { api } from '#web/lib/api-client.ts';
import { messageKeys } from '#web/api/keys.ts';
import { applyMessage } from './get-messages.ts';

/**
 * POST /messages/send with `template` (ADR-0213): an approved message template, the one message
 * Meta delivers once the 24-hour window closed. Not optimistic like the composer's text: the
 * server fills the contact's fields and may refuse a parameter, which the dialog shows on its field.
 */
export function useSendTemplate(contact: { id: string; serviceId: string }) {
  const client = useQueryClient();
  return useMutation({
    mutationKey: [...messageKeys.conversation(contact.id), 'template'],
    mutationFn: (template: TemplateSend) => api.post<Message>('/messages/send', { contactId: contact.id, serviceId: contact.serviceId, text: '', template }),
    onSuccess: (message) => applyMessage(client, message),
  });
}
