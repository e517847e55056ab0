import { useMutation } from '@tanstack/react-query';
import type { ResetPasswordAnswer, ResetPasswordPayload } from '#contracts/auth.ts';
import { api } from '#web/lib/api-client.ts';

/** POST /auth/reset-password: a session, or the accounts to choose from. */
export function resetPassword(payload: ResetPasswordPayload): Promise<ResetPasswordAnswer> {
  return api.post<ResetPasswordAnswer>('/auth/reset-password', payload);
}

export function useResetPassword() {
  return useMutation({ mutationKey: ['auth', 'reset-password'], mutationFn: resetPassword });
}
