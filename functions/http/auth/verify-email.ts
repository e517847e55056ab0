import { verifyEmailPayload } from '#contracts/auth.ts';
import { verifyEmail } from '#domain/auth/verify-email.ts';
import { api } from '#lib/api.ts';
import { noContent } from '#lib/responses.ts';

export const handler = api({ auth: 'public', body: verifyEmailPayload }).handler(async ({ ports, body, address }) => {
  await verifyEmail(ports, body, address);
  return noContent();
});
