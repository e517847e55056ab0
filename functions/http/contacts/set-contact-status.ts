import { conversationStatusPayload } from '#contracts/conversations.ts';
import { setConversationStatus } from '#domain/conversations/assignment.ts';
import { api, idParam } from '#lib/api.ts';
import { ok } from '#lib/responses.ts';

export const handler = api({ auth: 'member', params: idParam, body: conversationStatusPayload }).handler(async ({ ports, session, params, body }) =>
  ok(await setConversationStatus(ports, session, params.id, body.status)),
);
