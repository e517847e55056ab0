import { listApiTokens } from '#domain/api-tokens/api-token-actions.ts';
import { api } from '#lib/api.ts';
import { ok } from '#lib/responses.ts';

export const handler = api({ auth: 'admin' }).handler(async ({ ports, session }) => ok(await listApiTokens(ports, session)));
