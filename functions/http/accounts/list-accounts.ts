import { accountListRules, listAccounts } from '#domain/accounts/accounts.ts';
import { api } from '#lib/api.ts';
import { ok } from '#lib/responses.ts';

export const handler = api({ auth: 'signedIn', list: accountListRules }).handler(async ({ ports, session, list }) =>
  ok(await listAccounts(ports, session, list)),
);
