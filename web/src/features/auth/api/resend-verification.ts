import { useMutation } from '@tanstack/react-query';
import { api } from '#web/lib/api-client.ts';

/** POST /auth/resend-verification: e-mails a new code. */
export function resendVerification(payload: { userId: string }): Promise<void> {
  return api.post<void>('/auth/resend-verification', payload);
}

export function useResendVerification() {
  return useMutation({ mutationKey: ['auth', 'resend-verification'], mutationFn: resendVerification });
}
