import { queryOptions, replaceEqualDeep, useQuery } from '@tanstack/react-query';
import type { Service } from '#contracts/services.ts';
import { api } from '#web/lib/api-client.ts';
import { serviceKeys } from '#web/api/keys.ts';
import { newer } from '#web/lib/list-cache.ts';

/** GET /services/{id}: kept live by the realtime service events (status, QR code). */
export function getService(id: string, signal?: AbortSignal): Promise<Service> {
  return api.get<Service>(`/services/${encodeURIComponent(id)}`, { signal });
}

/**
 * A refetch read before a realtime event but answered after it (a pairing code, a status) would put
 * the older state back, and no later event comes to correct it: the cached connection stays when it
 * is newer (`updatedAt`) than the answer.
 */
function keepNewer(cached: unknown, fetched: unknown): unknown {
  if (!cached || !fetched) return fetched;
  const kept = newer(cached as Service, fetched as Service);
  return kept === cached ? cached : replaceEqualDeep(cached, fetched);
}

export function serviceQueryOptions(id: string) {
  return queryOptions({ queryKey: serviceKeys.detail(id), queryFn: ({ signal }) => getService(id, signal), structuralSharing: keepNewer });
}

export function useService(id: string | undefined) {
  return useQuery({ ...serviceQueryOptions(id ?? ''), enabled: !!id });
}
