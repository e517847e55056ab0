import { useMutation } from '@tanstack/react-query';
import { api } from '#web/lib/api-client.ts';
import { paymentKeys } from '#web/api/keys.ts';

/** POST /payments/portal-session: the Stripe billing portal URL behind 'Gerenciar assinatura' (admins). */
export function createPortalSession(): Promise<{ url: string }> {
  return api.post<{ url: string }>('/payments/portal-session', {});
}

export function useCreatePortalSession() {
  return useMutation({
    mutationKey: [...paymentKeys.all, 'portal'],
    mutationFn: createPortalSession,
    onSuccess: ({ url }) => {
      if (url) window.location.assign(url);
    },
  });
}
