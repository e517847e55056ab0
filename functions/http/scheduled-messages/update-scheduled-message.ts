import { scheduleMessagePayload } from '#contracts/scheduled-messages.ts';
import { updateScheduledMessage } from '#domain/scheduled-messages/scheduled-messages.ts';
import { api, idParam } from '#lib/api.ts';
import { ok } from '#lib/responses.ts';

export const handler = api({ auth: 'member', params: idParam, body: scheduleMessagePayload }).handler(async ({ ports, session, params, body }) =>
  ok(await updateScheduledMessage(ports, session, params.id, body)),
);
