import { useMutation } from '@tanstack/react-query';
import { api } from '#web/lib/api-client.ts';
import { clearSession } from '#web/lib/auth.ts';

/** POST /auth/logout (revokes the token), then forgets the session whatever the answer. */
export async function logout(): Promise<void> {
  try {
    await api.post<void>('/auth/logout');
  } finally {
    clearSession();
  }
}

export function useLogout() {
  return useMutation({ mutationKey: ['auth', 'logout'], mutationFn: logout, meta: { silent: true } });
}
