import { transferPayload } from '#contracts/conversations.ts';
import { transferConversation } from '#domain/conversations/assignment.ts';
import { api, idParam } from '#lib/api.ts';
import { ok } from '#lib/responses.ts';

export const handler = api({ auth: 'member', params: idParam, body: transferPayload }).handler(async ({ ports, session, params, body }) =>
  ok(await transferConversation(ports, session, params.id, body)),
);
