import { cancelScheduledMessagePayload } from '#contracts/scheduled-messages.ts';
import { cancelScheduledMessage } from '#domain/scheduled-messages/scheduled-messages.ts';
import { api, idParam } from '#lib/api.ts';
import { ok } from '#lib/responses.ts';

export const handler = api({ auth: 'member', params: idParam, body: cancelScheduledMessagePayload }).handler(async ({ ports, session, params, body }) =>
  ok(await cancelScheduledMessage(ports, session, body.contactId, params.id)),
);
