import { getContactImportStatus } from '#domain/contact-import/contact-import.ts';
import { api, idParam } from '#lib/api.ts';
import { ok } from '#lib/responses.ts';

export const handler = api({ auth: 'admin', params: idParam }).handler(async ({ ports, session, params }) =>
  ok(await getContactImportStatus(ports, session, params.id)),
);
