import { queryOptions, useQuery } from '@tanstack/react-query';
import type { User } from '#contracts/entities.ts';
import { api } from '#web/lib/api-client.ts';
import { userKeys } from '#web/api/keys.ts';

/** GET /users/{id}. */
export function getUser(id: string, signal?: AbortSignal): Promise<User> {
  return api.get<User>(`/users/${encodeURIComponent(id)}`, { signal });
}

export function userQueryOptions(id: string) {
  return queryOptions({ queryKey: userKeys.detail(id), queryFn: ({ signal }) => getUser(id, signal) });
}

export function useUser(id: string | undefined) {
  return useQuery({ ...userQueryOptions(id ?? ''), enabled: !!id });
}
