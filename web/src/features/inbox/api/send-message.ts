import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { maxInlineAudioBytes, messageTypeOf } from '#contracts/files.ts';
import { ack } from '#contracts/message-acks.ts';
import type { Message, MessageKind, MessageType, SendMessagePayload } from '#contracts/messages.ts';
import type { User } from '#contracts/entities.ts';
import { api } from '#web/lib/api-client.ts';
import { addNote } from './add-note.ts';
import { addLocalMessage, applyMessage, settleLocalMessage, updateLocalMessage, type ChatMessage } from './get-messages.ts';
import { requestUpload, uploadToUrl } from '#web/api/request-upload.ts';
import { messageKeys } from '#web/api/keys.ts';

/** POST /messages/send: stored with ack 0 and answered at once; the channel's answer comes by realtime. */
export function sendMessage(payload: SendMessagePayload): Promise<Message> {
  return api.post<Message>('/messages/send', payload);
}

/** POST /messages/{id}/retry: a failed message goes back to sending. */
export function retryMessage(id: string, contactId: string): Promise<Message> {
  return api.post<Message>(`/messages/${encodeURIComponent(id)}/retry`, { contactId });
}

export function useRetryMessage() {
  const client = useQueryClient();
  return useMutation({
    mutationKey: [...messageKeys.all, 'retry'],
    mutationFn: ({ id, contactId }: { id: string; contactId: string }) => retryMessage(id, contactId),
    onSuccess: (message) => applyMessage(client, message),
  });
}

/** What the composer sends: a text, or a file with its caption, or a voice note; or an internal note (text only). */
export interface Outgoing {
  contactId: string;
  serviceId: string;
  text: string;
  /** 'note': an internal note through POST /messages/notes (no file, no reply). */
  kind?: Extract<MessageKind, 'message' | 'note'>;
  replyTo?: ChatMessage | null;
  file?: { blob: Blob; name: string; mimetype: string; isPtt?: boolean } | null;
  user?: Pick<User, 'id' | 'name'> | null;
}

let localCounter = 0;

function readBase64(blob: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result).replace(/^data:[^,]*,/, ''));
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(blob);
  });
}

/**
 * Sends one message optimistically: it shows at once with ack 0 (and the upload's progress), is
 * uploaded through the presigned URL when it carries a file, and is replaced by the stored message
 * (by the answer or by its realtime event, whichever comes first; never shown twice). A failure is
 * logged and leaves the message marked as failed with a retry.
 */
export async function sendOutgoing(client: QueryClient, out: Outgoing): Promise<Message | null> {
  const now = new Date().toISOString();
  const localId = `local-${Date.now().toString(36)}-${(localCounter++).toString(36)}`;
  const type: MessageType = out.file ? (messageTypeOf(out.file.mimetype, !!out.file.isPtt) ?? 'document') : 'text';
  const objectUrl = out.file && typeof URL.createObjectURL === 'function' ? URL.createObjectURL(out.file.blob) : '';
  const local: ChatMessage = {
    id: localId,
    contactId: out.contactId,
    serviceId: out.serviceId,
    text: out.text,
    type,
    kind: out.kind ?? 'message',
    timestamp: now,
    isFromMe: true,
    ack: ack.sending,
    error: null,
    waiting: null,
    file: out.file
      ? { id: '', url: objectUrl, mimetype: out.file.mimetype, name: out.file.name, filename: out.file.name, type, size: out.file.blob.size, captionsUrl: null }
      : null,
    fileId: null,
    thumbnail: null,
    quotedMessage: out.replyTo
      ? {
          id: out.replyTo.id,
          text: out.replyTo.text,
          type: out.replyTo.type,
          isFromMe: out.replyTo.isFromMe,
          ack: out.replyTo.ack,
          timestamp: out.replyTo.timestamp,
          file: out.replyTo.file,
        }
      : null,
    replyMessageId: out.replyTo?.id ?? null,
    user: out.user ? { id: out.user.id, name: out.user.name } : null,
    groupContact: null,
    reactions: [],
    createdAt: now,
    updatedAt: now,
    local: { state: 'sending', progress: out.file ? 0 : undefined },
  };
  addLocalMessage(client, local);
  try {
    let fileId: string | null = null;
    if (out.file) {
      const inline = out.file.isPtt && out.file.blob.size <= maxInlineAudioBytes;
      const upload = await requestUpload({
        name: out.file.name,
        mimetype: out.file.mimetype,
        serviceId: out.serviceId,
        length: out.file.blob.size,
        isPtt: !!out.file.isPtt,
        ...(inline ? { base64: await readBase64(out.file.blob) } : {}),
      });
      if (!inline) {
        await uploadToUrl(upload.urlToUpload, out.file.blob, out.file.mimetype, (progress) =>
          updateLocalMessage(client, out.contactId, localId, { local: { state: 'sending', progress } }),
        );
      }
      fileId = upload.file.id;
      updateLocalMessage(client, out.contactId, localId, { fileId, local: { state: 'sending', progress: 1 } });
    }
    const stored =
      out.kind === 'note'
        ? await addNote({ contactId: out.contactId, text: out.text })
        : await sendMessage({
            contactId: out.contactId,
            serviceId: out.serviceId,
            text: out.text,
            type,
            fileId,
            replyMessageId: out.replyTo?.id ?? null,
          });
    settleLocalMessage(client, out.contactId, localId, stored);
    return stored;
  } catch (error) {
    console.warn(out.kind === 'note' ? 'Note failed' : 'Message send failed', error);
    updateLocalMessage(client, out.contactId, localId, {
      ack: ack.error,
      local: {
        state: 'failed',
        retry: () => {
          removeLocal(client, out.contactId, localId);
          void sendOutgoing(client, out);
        },
      },
      error: 'Não foi possível enviar a mensagem',
    });
    return null;
  }
}

function removeLocal(client: QueryClient, contactId: string, localId: string): void {
  for (const query of client.getQueryCache().findAll({ queryKey: messageKeys.conversation(contactId) })) {
    const data = query.state.data as { pages: { data: ChatMessage[] }[] } | undefined;
    if (!data) continue;
    client.setQueryData(query.queryKey, { ...data, pages: data.pages.map((p) => ({ ...p, data: p.data.filter((m) => m.id !== localId) })) });
  }
}
