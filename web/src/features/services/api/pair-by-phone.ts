import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ServicePairingPayload } from '#contracts/pairing.ts';
import type { Service } from '#contracts/services.ts';
import { api } from '#web/lib/api-client.ts';
import { serviceKeys } from '#web/api/keys.ts';
import { newer } from '#web/lib/list-cache.ts';

/** POST /services/{id}/pairing-code (admins): the connection pairs by a code typed on that phone; the code follows as `service.UPDATED`. */
export function pairByPhone(id: string, payload: ServicePairingPayload): Promise<Service> {
  return api.post<Service>(`/services/${encodeURIComponent(id)}/pairing-code`, payload);
}

/** The form shows the answer's problems itself (field messages, or the catalogue's text). */
export function usePairByPhone(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationKey: [...serviceKeys.all, 'pairing-code', id],
    mutationFn: (payload: ServicePairingPayload) => pairByPhone(id, payload),
    onSuccess: (service) => {
      // The code's own `service.UPDATED` may be here first (the worker can ask WhatsApp before this
      // answer is read): a newer cached version stays.
      client.setQueryData<Service>(serviceKeys.detail(id), (cached) => (cached ? newer(cached, service) : service));
      return client.invalidateQueries({ queryKey: serviceKeys.all });
    },
    meta: { silent: true },
  });
}
