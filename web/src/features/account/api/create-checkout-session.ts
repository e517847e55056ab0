import { useMutation } from '@tanstack/react-query';
import { api } from '#web/lib/api-client.ts';
import { paymentKeys } from '#web/api/keys.ts';

/** POST /payments/create-checkout-session: the checkout URL the browser goes to. */
export function createCheckoutSession(priceId: string | undefined): Promise<{ url: string }> {
  return api.post<{ url: string }>('/payments/create-checkout-session', { priceId });
}

export function useCreateCheckoutSession() {
  return useMutation({
    mutationKey: [...paymentKeys.all, 'checkout'],
    mutationFn: createCheckoutSession,
    onSuccess: ({ url }) => {
      if (url) window.location.assign(url);
    },
  });
}
