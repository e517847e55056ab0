import { contactImportListRules, listContactImports } from '#domain/contact-import/contact-import.ts';
import { api } from '#lib/api.ts';
import { ok } from '#lib/responses.ts';

export const handler = api({ auth: 'admin', list: contactImportListRules }).handler(async ({ ports, session, list }) =>
  ok(await listContactImports(ports, session, list)),
);
