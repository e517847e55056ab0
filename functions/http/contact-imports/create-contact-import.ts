import { contactImportRequest } from '#contracts/contact-imports.ts';
import { createContactImport } from '#domain/contact-import/contact-import.ts';
import { api } from '#lib/api.ts';
import { created } from '#lib/responses.ts';

export const handler = api({ auth: 'admin', body: contactImportRequest }).handler(async ({ ports, session, body }) =>
  created(await createContactImport(ports, session, body)),
);
