import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { EmbeddedSignupConfig, EmbeddedSignupPayload } from '#contracts/embedded-signup.ts';
import type { Service } from '#contracts/services.ts';
import { api } from '#web/lib/api-client.ts';
import { serviceKeys } from '#web/api/keys.ts';

/** GET /whatsapp-cloud/embedded-signup (admins): whether 'Conectar com a Meta' is offered, and the Meta app's ids. */
export function useEmbeddedSignupConfig(enabled: boolean) {
  return useQuery({
    queryKey: [...serviceKeys.all, 'embedded-signup'],
    queryFn: ({ signal }) => api.get<EmbeddedSignupConfig>('/whatsapp-cloud/embedded-signup', { signal }),
    enabled,
    staleTime: Number.POSITIVE_INFINITY,
  });
}

/** POST /whatsapp-cloud/embedded-signup: the connection made and started from Meta's code; the form shows refusals itself. */
export function useConnectEmbeddedSignup() {
  const client = useQueryClient();
  return useMutation({
    mutationKey: [...serviceKeys.all, 'embedded-signup', 'connect'],
    mutationFn: (payload: EmbeddedSignupPayload) => api.post<Service>('/whatsapp-cloud/embedded-signup', payload),
    onSuccess: () => client.invalidateQueries({ queryKey: serviceKeys.all }),
    meta: { silent: true },
  });
}
