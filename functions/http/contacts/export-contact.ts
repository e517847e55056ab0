import { exportContact } from '#domain/contacts/contact-export.ts';
import { api, idParam } from '#lib/api.ts';
import { ok } from '#lib/responses.ts';

export const handler = api({ auth: 'admin', params: idParam }).handler(async ({ ports, session, params }) =>
  ok(await exportContact(ports, session, params.id)),
);
