import { contactImportSettings } from '#contracts/contact-imports.ts';
import { startContactImport } from '#domain/contact-import/contact-import.ts';
import { api, idParam } from '#lib/api.ts';
import { ok } from '#lib/responses.ts';

export const handler = api({ auth: 'admin', params: idParam, body: contactImportSettings }).handler(async ({ ports, session, params, body }) =>
  ok(await startContactImport(ports, session, params.id, body)),
);
