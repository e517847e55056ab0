import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Account, ListAnswer } from '#contracts/entities.ts';
import { listQueryString, type ListQueryInput } from '#contracts/list-query.ts';
import { api } from '#web/lib/api-client.ts';

/** GET /accounts?query=...: the accounts the signed-in user can see. */
export function getAccounts(query: ListQueryInput = {}, signal?: AbortSignal): Promise<ListAnswer<Account>> {
  return api.get<ListAnswer<Account>>(`/accounts${listQueryString(query)}`, { signal });
}

export function accountsQueryOptions(query: ListQueryInput = {}) {
  return queryOptions({ queryKey: ['accounts', 'list', query], queryFn: ({ signal }) => getAccounts(query, signal) });
}

export function useAccounts(query: ListQueryInput = {}) {
  return useQuery(accountsQueryOptions(query));
}
