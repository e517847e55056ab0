import { syncTemplates } from '#domain/templates/templates.ts';
import { api, idParam } from '#lib/api.ts';
import { ok } from '#lib/responses.ts';

// Reads every page of Meta's list: more than the default 10 s on a large account.
export const handler = api({ auth: 'admin', params: idParam }).handler(async ({ ports, session, params }) =>
  ok(await syncTemplates(ports, session, params.id)),
);
