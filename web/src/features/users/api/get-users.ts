import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { ListAnswer, User } from '#contracts/entities.ts';
import { containsPattern, defaultPerPage, listQueryString, type ListQueryInput, type Where } from '#contracts/list-query.ts';
import { api } from '#web/lib/api-client.ts';
import { userKeys } from '#web/api/keys.ts';

export interface UserFilters {
  name: string;
  email: string;
}

export function usersQuery(filters: UserFilters, page: number, perPage = defaultPerPage): ListQueryInput {
  const where: Where = {};
  if (filters.name.trim()) where.name = { like: containsPattern(filters.name.trim()) };
  if (filters.email.trim()) where.email = { like: containsPattern(filters.email.trim()) };
  return { where, include: ['avatar'], page, perPage, withCount: true };
}

/** GET /users?query=...: one page of the users list. */
export function getUsers(query: ListQueryInput, signal?: AbortSignal): Promise<ListAnswer<User>> {
  return api.get<ListAnswer<User>>(`/users${listQueryString(query)}`, { signal });
}

export function usersQueryOptions(query: ListQueryInput) {
  return queryOptions({ queryKey: userKeys.list(query), queryFn: ({ signal }) => getUsers(query, signal), placeholderData: keepPreviousData });
}

export function useUsers(query: ListQueryInput) {
  return useQuery(usersQueryOptions(query));
}
