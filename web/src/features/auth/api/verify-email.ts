import { useMutation } from '@tanstack/react-query';
import type { VerifyEmailPayload } from '#contracts/auth.ts';
import { api } from '#web/lib/api-client.ts';

/** POST /auth/verify-email. */
export function verifyEmail(payload: VerifyEmailPayload): Promise<void> {
  return api.post<void>('/auth/verify-email', payload);
}

export function useVerifyEmail() {
  return useMutation({ mutationKey: ['auth', 'verify-email'], mutationFn: verifyEmail });
}
