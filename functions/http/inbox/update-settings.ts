import { inboxSettingsPayload } from '#contracts/conversations.ts';
import { updateInboxSettings } from '#domain/conversations/inbox.ts';
import { api } from '#lib/api.ts';
import { ok } from '#lib/responses.ts';

export const handler = api({ auth: 'admin', body: inboxSettingsPayload }).handler(async ({ ports, session, body }) =>
  ok(await updateInboxSettings(ports, session, body)),
);
