/** A message as the API answers it; file URLs are signed at read time. */
import { ack, type Message, type MessageReaction } from '#contracts/messages.ts';
import type { MessageItem, Reactions } from '#db/messages.ts';

/** Reactions grouped by emoji, in the order each emoji was first chosen. */
export function reactionsOf(reactions: Reactions | undefined): MessageReaction[] {
  const byEmoji = new Map<string, MessageReaction & { at: string }>();
  for (const r of Object.values(reactions ?? {}).sort((a, b) => a.at.localeCompare(b.at))) {
    const group = byEmoji.get(r.emoji);
    if (group) {
      group.count++;
      group.fromMe ||= r.fromMe;
    } else byEmoji.set(r.emoji, { emoji: r.emoji, count: 1, fromMe: r.fromMe, at: r.at });
  }
  return [...byEmoji.values()].map(({ emoji, count, fromMe }) => ({ emoji, count, fromMe }));
}

export async function toMessage(item: MessageItem, signUrl: (key: string, name: string, mimetype: string) => Promise<string>): Promise<Message> {
  const file = item.file
    ? {
        id: item.file.id,
        url: await signUrl(item.file.objectKey, item.file.name, item.file.mimetype),
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
    kind: item.kind ?? 'message',
    timestamp: item.timestamp,
    isFromMe: item.isFromMe,
    ack: item.ack,
    error: item.error,
    waiting: item.ack === ack.sending && item.waiting && item.waitingAttempt === item.sendAttempt ? item.waiting : null,
    file,
    fileId: item.file?.id ?? null,
    thumbnail: item.messageType === 'image' && file ? { url: file.url } : null,
    quotedMessage: item.quotedMessage,
    replyMessageId: item.replyMessageId,
    user: item.user,
    groupContact: item.groupContact,
    reactions: reactionsOf(item.reactions),
    ...(item.automated ? { automated: true as const } : {}),
    ...(item.signed ? { signed: true as const } : {}),
    ...(item.forwarded ? { forwarded: true as const } : {}),
    createdAt: item.createdAt,
    updatedAt: item.updatedAt,
  };
}
