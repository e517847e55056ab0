import { listTemplates } from '#domain/templates/templates.ts';
import { api, idParam } from '#lib/api.ts';
import { ok } from '#lib/responses.ts';

export const handler = api({ auth: 'member', params: idParam }).handler(async ({ ports, session, params }) =>
  ok(await listTemplates(ports, session, params.id)),
);
