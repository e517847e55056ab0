import { deleteContact } from '#domain/contacts/contacts.ts';
import { api, idParam } from '#lib/api.ts';
import { noContent } from '#lib/responses.ts';

export const handler = api({ auth: 'member', params: idParam }).handler(async ({ ports, session, params }) => {
  await deleteContact(ports, session, params.id);
  return noContent();
});
