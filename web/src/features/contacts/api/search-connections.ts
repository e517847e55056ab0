import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ListAnswer } from '#contracts/entities.ts';
import { containsPattern, listQueryString } from '#contracts/list-query.ts';
import type { Service } from '#contracts/services.ts';
import { api } from '#web/lib/api-client.ts';
import { serviceKeys } from '#web/api/keys.ts';

export const connectionPickerPageSize = 30;

/** GET /services?query=...: the connection picker's options, 30 per search. */
export function searchConnections(text: string, signal?: AbortSignal): Promise<ListAnswer<Service>> {
  const where = text.trim() ? { name: { like: containsPattern(text.trim()) } } : {};
  return api.get<ListAnswer<Service>>(`/services${listQueryString({ where, perPage: connectionPickerPageSize, withCount: true })}`, { signal });
}

export function connectionSearchQueryOptions(text: string) {
  return queryOptions({ queryKey: serviceKeys.search(text.trim()), queryFn: ({ signal }) => searchConnections(text, signal) });
}

export function useConnectionSearch(text: string, enabled: boolean) {
  return useQuery({ ...connectionSearchQueryOptions(text), enabled });
}
