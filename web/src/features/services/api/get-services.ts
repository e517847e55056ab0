import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { ListAnswer } from '#contracts/entities.ts';
import { containsPattern, defaultPerPage, listQueryString, type ListQueryInput } from '#contracts/list-query.ts';
import type { Service } from '#contracts/services.ts';
import { api } from '#web/lib/api-client.ts';
import { serviceKeys } from '#web/api/keys.ts';

export function servicesQuery(name: string, page: number, perPage = defaultPerPage): ListQueryInput {
  return { where: name.trim() ? { name: { like: containsPattern(name.trim()) } } : {}, page, perPage, withCount: true };
}

/** GET /services?query=...: one page of the connections list. */
export function getServices(query: ListQueryInput, signal?: AbortSignal): Promise<ListAnswer<Service>> {
  return api.get<ListAnswer<Service>>(`/services${listQueryString(query)}`, { signal });
}

export function servicesQueryOptions(query: ListQueryInput) {
  return queryOptions({ queryKey: serviceKeys.list(query), queryFn: ({ signal }) => getServices(query, signal), placeholderData: keepPreviousData });
}

export function useServices(query: ListQueryInput) {
  return useQuery(servicesQueryOptions(query));
}
