import { useMutation } from '@tanstack/react-query';
import type { LoginAnswer, LoginPayload } from '#contracts/auth.ts';
import { api } from '#web/lib/api-client.ts';

/** POST /auth/login: a session, or the users to choose from when the e-mail has several accounts. */
export function login(payload: LoginPayload): Promise<LoginAnswer> {
  return api.post<LoginAnswer>('/auth/login', payload);
}

export function useLogin() {
  return useMutation({ mutationKey: ['auth', 'login'], mutationFn: login });
}
