import { contactPayload } from '#contracts/contacts.ts';
import { createContact } from '#domain/contacts/contacts.ts';
import { api } from '#lib/api.ts';
import { created } from '#lib/responses.ts';

export const handler = api({ auth: 'member', body: contactPayload }).handler(async ({ ports, session, body }) =>
  created(await createContact(ports, session, body)),
);
