import { sendMessagePayload } from '#contracts/messages.ts';
import { sendMessage, sendMessageReads } from '#domain/messages/send-message.ts';
import { api } from '#lib/api.ts';
import { created } from '#lib/responses.ts';

// The contact and the connection are read while the session is checked.
export const handler = api({ auth: 'member', body: sendMessagePayload, prefetch: sendMessageReads }).handler(async ({ ports, session, body, prefetched }) =>
  created(await sendMessage(ports, session, body, prefetched)),
);
