import { startAccountExport } from '#domain/accounts/account-export.ts';
import { api, idParam } from '#lib/api.ts';
import { created } from '#lib/responses.ts';

export const handler = api({ auth: 'admin', params: idParam }).handler(async ({ ports, session, params }) =>
  created(await startAccountExport(ports, session, params.id)),
);
