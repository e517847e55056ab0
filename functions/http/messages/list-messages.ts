import { listMessages, messageListRules } from '#domain/messages/list-messages.ts';
import { api } from '#lib/api.ts';
import { ok } from '#lib/responses.ts';

export const handler = api({ auth: 'member', list: messageListRules }).handler(async ({ ports, session, list }) =>
  ok(await listMessages(ports, session, list)),
);
