import { resendVerificationPayload } from '#contracts/auth.ts';
import { resendVerification } from '#domain/auth/verify-email.ts';
import { api } from '#lib/api.ts';
import { noContent } from '#lib/responses.ts';

export const handler = api({ auth: 'public', body: resendVerificationPayload }).handler(async ({ ports, body, address }) => {
  await resendVerification(ports, body.userId, address);
  return noContent();
});
