/** A message as the API answers it; file URLs are signed at read time. */
import type { Message } from '#contracts/messages.ts';
import type { MessageItem } from '#db/messages.ts';

export async function toMessage(item: MessageItem, signUrl: (key: string, name: string) => Promise<string>): Promise<Message> {
  const file = item.file
    ? {
        id: item.file.id,
        url: await signUrl(item.file.objectKey, item.file.name),
        mimetype: item.file.mimetype,
        name: item.file.name,
        filename: item.file.name,
        type: item.messageType,
        size: item.file.size,
        captionsUrl: null,
      }
    : null;
  return {
    id: item.id,
    contactId: item.contactId,
    serviceId: item.serviceId,
    text: item.text,
    type: item.messageType,
    timestamp: item.timestamp,
    isFromMe: item.isFromMe,
    ack: item.ack,
    error: item.error,
    file,
    fileId: item.file?.id ?? null,
    thumbnail: item.messageType === 'image' && file ? { url: file.url } : null,
    quotedMessage: item.quotedMessage,
    replyMessageId: item.replyMessageId,
    user: item.user,
    groupContact: item.groupContact,
    createdAt: item.createdAt,
    updatedAt: item.updatedAt,
  };
}
