import { resetPasswordPayload } from '#contracts/auth.ts';
import { resetPassword } from '#domain/auth/password-reset.ts';
import { api } from '#lib/api.ts';
import { ok } from '#lib/responses.ts';

export const handler = api({ auth: 'public', body: resetPasswordPayload }).handler(async ({ ports, body, address }) =>
  ok(await resetPassword(ports, body, address)),
);
