import { sendMessagePayload } from '#contracts/messages.ts';
import { sendMessage } from '#domain/messages/send-message.ts';
import { api } from '#lib/api.ts';
import { created } from '#lib/responses.ts';

export const handler = api({ auth: 'member', body: sendMessagePayload }).handler(async ({ ports, session, body }) =>
  created(await sendMessage(ports, session, body)),
);
