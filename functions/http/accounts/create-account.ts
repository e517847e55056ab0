import { accountPayload } from '#contracts/accounts.ts';
import { createAccount } from '#domain/accounts/accounts.ts';
import { api } from '#lib/api.ts';
import { created } from '#lib/responses.ts';

export const handler = api({ auth: 'signedIn', body: accountPayload }).handler(async ({ ports, session, body }) =>
  created(await createAccount(ports, session, body.name)),
);
