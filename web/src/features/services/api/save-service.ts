import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Service, ServiceCreatePayload, ServiceUpdatePayload } from '#contracts/services.ts';
import { api } from '#web/lib/api-client.ts';
import { serviceKeys } from '#web/api/keys.ts';

/** POST /services. */
export function createService(payload: ServiceCreatePayload): Promise<Service> {
  return api.post<Service>('/services', payload);
}

/** PUT /services/{id}. */
export function updateService(id: string, payload: ServiceUpdatePayload): Promise<Service> {
  return api.put<Service>(`/services/${encodeURIComponent(id)}`, payload);
}

/** Submission errors are only logged and the form stays (SPEC section 2): the caller shows field messages. */
export function useSaveService(id: string | undefined) {
  const client = useQueryClient();
  return useMutation({
    mutationKey: [...serviceKeys.all, 'save', id ?? 'new'],
    mutationFn: (payload: ServiceCreatePayload | ServiceUpdatePayload) =>
      id ? updateService(id, payload as ServiceUpdatePayload) : createService(payload as ServiceCreatePayload),
    onSuccess: () => client.invalidateQueries({ queryKey: serviceKeys.all }),
    onError: (error) => console.warn('Connection form submission failed', error),
    meta: { silent: true },
  });
}
