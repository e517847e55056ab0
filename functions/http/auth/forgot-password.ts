import { forgotPasswordPayload } from '#contracts/auth.ts';
import { forgotPassword } from '#domain/auth/password-reset.ts';
import { api } from '#lib/api.ts';
import { noContent } from '#lib/responses.ts';

export const handler = api({ auth: 'public', body: forgotPasswordPayload }).handler(async ({ ports, body, address }) => {
  await forgotPassword(ports, body.email, address);
  return noContent();
});
