import { serviceUpdatePayload } from '#contracts/services.ts';
import { updateService } from '#domain/services/services.ts';
import { api, idParam } from '#lib/api.ts';
import { ok } from '#lib/responses.ts';

export const handler = api({ auth: 'admin', params: idParam, body: serviceUpdatePayload }).handler(async ({ ports, session, params, body }) =>
  ok(await updateService(ports, session, params.id, body)),
);
