import { contactListRules } from '#domain/contacts/contacts.ts';
import { inboxCounts } from '#domain/conversations/inbox.ts';
import { api } from '#lib/api.ts';
import { ok } from '#lib/responses.ts';

export const handler = api({ auth: 'member', list: contactListRules }).handler(async ({ ports, session, list }) => ok(await inboxCounts(ports, session, list)));
