import type { Message } from '#contracts/messages.ts';

/**
 * A message as the API answers it: a customer's text, on a Telegram bot, not yet acknowledged, with
 * no file, reply, reaction or author. Tests and measuring scripts give the id and whatever they look at.
 */
export function messageFixture(fields: Partial<Message> & Pick<Message, 'id'>, at = '2026-01-01T12:00:00.000Z'): Message {
  return {
    contactId: 'c1',
    serviceId: 's1',
    text: `texto ${fields.id}`,
    type: 'text',
    kind: 'message',
    timestamp: at,
    isFromMe: false,
    ack: 0,
    error: null,
    waiting: null,
    file: null,
    fileId: null,
    thumbnail: null,
    quotedMessage: null,
    replyMessageId: null,
    user: null,
    groupContact: null,
    reactions: [],
    createdAt: at,
    updatedAt: at,
    ...fields,
  };
}
