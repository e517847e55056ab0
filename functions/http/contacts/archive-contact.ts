import { contactArchivePayload } from '#contracts/contacts.ts';
import { archiveContact } from '#domain/contacts/contacts.ts';
import { api, idParam } from '#lib/api.ts';
import { ok } from '#lib/responses.ts';

export const handler = api({ auth: 'admin', params: idParam, body: contactArchivePayload }).handler(async ({ ports, session, params, body }) =>
  ok(await archiveContact(ports, session, params.id, body.archive)),
);
