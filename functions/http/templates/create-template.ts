import { templatePayload } from '#contracts/templates.ts';
import { createTemplate } from '#domain/templates/templates.ts';
import { api, idParam } from '#lib/api.ts';
import { created } from '#lib/responses.ts';

export const handler = api({ auth: 'admin', params: idParam, body: templatePayload }).handler(async ({ ports, session, params, body }) =>
  created(await createTemplate(ports, session, params.id, body)),
);
