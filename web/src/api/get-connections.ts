import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ListAnswer } from '#contracts/entities.ts';
import { listQueryString, maxPerPage } from '#contracts/list-query.ts';
import type { Service } from '#contracts/services.ts';
import { api } from '#web/lib/api-client.ts';
import { serviceKeys } from '#web/api/keys.ts';

/** Every connection of the account (maxPerPage, 500 a page, looping to totalCount: docs/product.md#lists-and-calls). */
export async function getAllConnections(signal?: AbortSignal): Promise<ListAnswer<Service>> {
  const data: Service[] = [];
  for (let page = 0; ; page++) {
    const answer = await api.get<ListAnswer<Service>>(`/services${listQueryString({ page, perPage: maxPerPage, withCount: true })}`, { signal });
    data.push(...answer.data);
    if (data.length >= answer.totalCount || answer.data.length === 0) return { data, totalCount: answer.totalCount };
  }
}

export function connectionsQueryOptions() {
  return queryOptions({ queryKey: serviceKeys.everything(), queryFn: ({ signal }) => getAllConnections(signal) });
}

export function useConnections() {
  return useQuery(connectionsQueryOptions());
}
