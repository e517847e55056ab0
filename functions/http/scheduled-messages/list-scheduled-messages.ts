import { listScheduledMessages } from '#domain/scheduled-messages/scheduled-messages.ts';
import { api, idParam } from '#lib/api.ts';
import { ok } from '#lib/responses.ts';

// The conversation's scheduled messages still to send, the soonest first.
export const handler = api({ auth: 'member', params: idParam }).handler(async ({ ports, session, params }) =>
  ok(await listScheduledMessages(ports, session, params.id)),
);
