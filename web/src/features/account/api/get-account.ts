import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Account } from '#contracts/entities.ts';
import { api } from '#web/lib/api-client.ts';
import { accountKeys } from '#web/api/keys.ts';

/** GET /accounts/{id}: the account, its plan and subscription (kept live by account events). */
export function getAccount(id: string, signal?: AbortSignal): Promise<Account> {
  return api.get<Account>(`/accounts/${encodeURIComponent(id)}`, { signal });
}

export function accountQueryOptions(id: string) {
  return queryOptions({ queryKey: accountKeys.detail(id), queryFn: ({ signal }) => getAccount(id, signal) });
}

export function useAccount(id: string | null | undefined) {
  return useQuery({ ...accountQueryOptions(id ?? ''), enabled: !!id });
}
