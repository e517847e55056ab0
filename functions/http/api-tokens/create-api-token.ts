import { apiTokenPayload } from '#contracts/api-tokens.ts';
import { createApiToken } from '#domain/api-tokens/api-token-actions.ts';
import { api } from '#lib/api.ts';
import { created } from '#lib/responses.ts';

export const handler = api({ auth: 'admin', body: apiTokenPayload }).handler(async ({ ports, session, body }) =>
  created(await createApiToken(ports, session, body)),
);
