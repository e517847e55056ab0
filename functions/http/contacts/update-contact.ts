import { contactPayload } from '#contracts/contacts.ts';
import { updateContact } from '#domain/contacts/contacts.ts';
import { api, idParam } from '#lib/api.ts';
import { ok } from '#lib/responses.ts';

export const handler = api({ auth: 'member', params: idParam, body: contactPayload }).handler(async ({ ports, session, params, body }) =>
  ok(await updateContact(ports, session, params.id, body)),
);
