import { useMutation } from '@tanstack/react-query';
import type { RegisterPayload, SessionAnswer } from '#contracts/auth.ts';
import { api } from '#web/lib/api-client.ts';

export type RegisterAnswer = SessionAnswer & { id: string };

/** POST /auth/register. */
export function register(payload: RegisterPayload): Promise<RegisterAnswer> {
  return api.post<RegisterAnswer>('/auth/register', payload);
}

export function useRegister() {
  return useMutation({ mutationKey: ['auth', 'register'], mutationFn: register });
}
