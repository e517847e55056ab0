import { connectionMenuSchema } from '#contracts/automations.ts';
import { saveConnectionMenu } from '#domain/automations/settings.ts';
import { api, idParam } from '#lib/api.ts';
import { ok } from '#lib/responses.ts';

export const handler = api({ auth: 'admin', params: idParam, body: connectionMenuSchema }).handler(async ({ ports, session, params, body }) =>
  ok(await saveConnectionMenu(ports, session, params.id, body)),
);
