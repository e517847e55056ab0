import { useMutation } from '@tanstack/react-query';
import type { ForgotPasswordPayload } from '#contracts/auth.ts';
import { api } from '#web/lib/api-client.ts';

/** POST /auth/forgot-password: always 204, whether or not the e-mail exists. */
export function forgotPassword(payload: ForgotPasswordPayload): Promise<void> {
  return api.post<void>('/auth/forgot-password', payload);
}

export function useForgotPassword() {
  return useMutation({ mutationKey: ['auth', 'forgot-password'], mutationFn: forgotPassword });
}
