import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ServicePairingPayload } from '#contracts/pairing.ts';
import type { Service } from '#contracts/services.ts';
import { api } from '#web/lib/api-client.ts';
import { serviceKeys } from '#web/api/keys.ts';

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
      client.setQueryData(serviceKeys.detail(id), service);
      return client.invalidateQueries({ queryKey: serviceKeys.all });
    },
    meta: { silent: true },
  });
}
