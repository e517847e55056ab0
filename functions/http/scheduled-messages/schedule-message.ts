import { scheduleMessagePayload } from '#contracts/scheduled-messages.ts';
import { scheduleMessage } from '#domain/scheduled-messages/scheduled-messages.ts';
import { api } from '#lib/api.ts';
import { created } from '#lib/responses.ts';

export const handler = api({ auth: 'member', body: scheduleMessagePayload }).handler(async ({ ports, session, body }) =>
  created(await scheduleMessage(ports, session, body)),
);
