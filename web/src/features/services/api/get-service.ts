import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Service } from '#contracts/services.ts';
import { api } from '#web/lib/api-client.ts';
import { serviceKeys } from '#web/api/keys.ts';
import { keepNewerItem } from '#web/lib/list-cache.ts';

/** GET /services/{id}: kept live by the realtime service events (status, QR code); a late refetch never puts an older state back (`keepNewerItem`). */
export function getService(id: string, signal?: AbortSignal): Promise<Service> {
  return api.get<Service>(`/services/${encodeURIComponent(id)}`, { signal });
}

export function serviceQueryOptions(id: string) {
  return queryOptions({ queryKey: serviceKeys.detail(id), queryFn: ({ signal }) => getService(id, signal), structuralSharing: keepNewerItem });
}

export function useService(id: string | undefined) {
  return useQuery({ ...serviceQueryOptions(id ?? ''), enabled: !!id });
}
