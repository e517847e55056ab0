import { contactListRules } from '#domain/contacts/contacts.ts';
import { exportContactList } from '#domain/contacts/contact-list-export.ts';
import { api } from '#lib/api.ts';
import { ok } from '#lib/responses.ts';

/** 'Exportar CSV': the list query's filter and order (its page is ignored), answered as a signed link to the file (ADR-0226). */
export const handler = api({ auth: 'admin', list: contactListRules }).handler(async ({ ports, session, list }) =>
  ok(await exportContactList(ports, session, list)),
);
