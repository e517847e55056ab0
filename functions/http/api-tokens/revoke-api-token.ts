import { revokeApiToken } from '#domain/api-tokens/api-token-actions.ts';
import { api, idParam } from '#lib/api.ts';
import { ok } from '#lib/responses.ts';

export const handler = api({ auth: 'admin', params: idParam }).handler(async ({ ports, session, params }) =>
  ok(await revokeApiToken(ports, session, params.id)),
);
