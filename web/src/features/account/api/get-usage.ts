import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Usage } from '#contracts/entities.ts';
import { api } from '#web/lib/api-client.ts';
import { accountKeys } from '#web/api/keys.ts';

/** GET /accounts/{id}/usage: called only while the subscription keeps the plan (docs/product.md#screens, /my-account). */
export function getUsage(id: string, signal?: AbortSignal): Promise<Usage> {
  return api.get<Usage>(`/accounts/${encodeURIComponent(id)}/usage`, { signal });
}

export function usageQueryOptions(id: string) {
  return queryOptions({ queryKey: accountKeys.usage(id), queryFn: ({ signal }) => getUsage(id, signal) });
}

export function useUsage(id: string, enabled: boolean) {
  return useQuery({ ...usageQueryOptions(id), enabled });
}
