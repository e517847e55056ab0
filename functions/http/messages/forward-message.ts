import { forwardMessagePayload } from '#contracts/messages.ts';
import { forwardMessage } from '#domain/messages/forward-message.ts';
import { api, idParam } from '#lib/api.ts';
import { created } from '#lib/responses.ts';

export const handler = api({ auth: 'member', params: idParam, body: forwardMessagePayload }).handler(async ({ ports, session, params, body }) =>
  created({ data: await forwardMessage(ports, session, params.id, body) }),
);
