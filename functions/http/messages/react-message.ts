import { reactMessagePayload } from '#contracts/messages.ts';
import { reactToMessage } from '#domain/messages/react-message.ts';
import { api, idParam } from '#lib/api.ts';
import { ok } from '#lib/responses.ts';

export const handler = api({ auth: 'member', params: idParam, body: reactMessagePayload }).handler(async ({ ports, session, params, body }) =>
  ok(await reactToMessage(ports, session, params.id, body)),
);
