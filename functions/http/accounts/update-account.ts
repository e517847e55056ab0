import { accountPayload } from '#contracts/accounts.ts';
import { updateAccount } from '#domain/accounts/accounts.ts';
import { api, idParam } from '#lib/api.ts';
import { ok } from '#lib/responses.ts';

export const handler = api({ auth: 'member', params: idParam, body: accountPayload }).handler(async ({ ports, session, params, body }) =>
  ok(await updateAccount(ports, session, params.id, body.name)),
);
