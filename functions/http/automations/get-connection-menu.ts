import { getConnectionMenu } from '#domain/automations/settings.ts';
import { api, idParam } from '#lib/api.ts';
import { ok } from '#lib/responses.ts';

export const handler = api({ auth: 'member', params: idParam }).handler(async ({ ports, session, params }) =>
  ok(await getConnectionMenu(ports, session, params.id)),
);
