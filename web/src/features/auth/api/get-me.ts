import { queryOptions, useQuery } from '@tanstack/react-query';
import type { User } from '#contracts/entities.ts';
import { api } from '#web/lib/api-client.ts';

/** GET /auth/me: the signed-in user (validates a stored token). */
export function getMe(signal?: AbortSignal): Promise<{ user: User }> {
  return api.get<{ user: User }>('/auth/me', { signal });
}

export function meQueryOptions() {
  return queryOptions({ queryKey: ['auth', 'me'], queryFn: ({ signal }) => getMe(signal), meta: { silent: true } });
}

export function useMe() {
  return useQuery(meQueryOptions());
}
