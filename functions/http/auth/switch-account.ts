import { switchAccountPayload } from '#contracts/auth.ts';
import { switchAccount } from '#domain/auth/switch-account.ts';
import { api } from '#lib/api.ts';
import { ok } from '#lib/responses.ts';

export const handler = api({ auth: 'signedIn', body: switchAccountPayload }).handler(async ({ ports, session, body }) =>
  ok(await switchAccount(ports, session, body.accountId)),
);
