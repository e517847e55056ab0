import type { Service, ServiceCreatePayload, ServiceUpdatePayload } from '#contracts/services.ts';
import { api } from '#web/lib/api-client.ts';
import { useSaveEntity } from '#web/lib/use-save-entity.ts';
import { serviceKeys } from '#web/api/keys.ts';

/** POST /services. */
export function createService(payload: ServiceCreatePayload): Promise<Service> {
  return api.post<Service>('/services', payload);
}

/** PUT /services/{id}. */
export function updateService(id: string, payload: ServiceUpdatePayload): Promise<Service> {
  return api.put<Service>(`/services/${encodeURIComponent(id)}`, payload);
}

/** Submission errors are only logged and the form stays (docs/product.md#screens): the caller shows field messages. */
export function useSaveService(id: string | undefined) {
  return useSaveEntity(
    serviceKeys.all,
    id,
    { create: createService, update: updateService },
    {
      onError: (error) => console.warn('Connection form submission failed', error),
      meta: { silent: true },
    },
  );
}
