import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Message } from '#contracts/messages.ts';
import type { TemplateSend } from '#contracts/templates.ts';
import { api } from '#web/lib/api-client.ts';
import { messageKeys } from '#web/api/keys.ts';
import { applyMessage } from './get-messages.ts';
import { requestUpload, uploadToUrl } from '#web/api/request-upload.ts';

/**
 * POST /messages/send with `template` (ADR-0213): an approved message template, the one message
 * Meta delivers once the 24-hour window closed. A media header's file goes first through the
 * upload path every file takes (a presigned PUT) and is named by `fileId`. Not optimistic like the
 * composer's text: the server fills the contact's fields and may refuse a value, which the dialog
 * shows on its field.
 */
export function useSendTemplate(contact: { id: string; serviceId: string }) {
  const client = useQueryClient();
  return useMutation({
    mutationKey: [...messageKeys.conversation(contact.id), 'template'],
    mutationFn: async ({ template, file }: { template: TemplateSend; file: File | null }) => {
      let fileId: string | null = null;
      if (file) {
        const upload = await requestUpload({ name: file.name, mimetype: file.type, serviceId: contact.serviceId, length: file.size, isPtt: false });
        await uploadToUrl(upload.urlToUpload, file, file.type, () => {});
        fileId = upload.file.id;
      }
      return api.post<Message>('/messages/send', { contactId: contact.id, serviceId: contact.serviceId, text: '', template, ...(fileId ? { fileId } : {}) });
    },
    onSuccess: (message) => applyMessage(client, message),
  });
}
