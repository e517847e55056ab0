import { retryMessagePayload } from '#contracts/messages.ts';
import { retryMessage } from '#domain/messages/send-message.ts';
import { api, idParam } from '#lib/api.ts';
import { ok } from '#lib/responses.ts';

export const handler = api({ auth: 'member', params: idParam, body: retryMessagePayload }).handler(async ({ ports, session, params, body }) =>
  ok(await retryMessage(ports, session, body.contactId, params.id)),
);
