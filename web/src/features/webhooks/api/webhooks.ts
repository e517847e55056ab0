import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { WebhookDelivery, WebhookSubscription, WebhookSubscriptionPayload, WebhookSubscriptionWithSecret } from '#contracts/webhooks.ts';
import { api } from '#web/lib/api-client.ts';

/** The screen's cache entries: the subscriptions, and each one's delivery log. */
const webhookKeys = {
  all: ['webhooks'] as const,
  list: () => [...webhookKeys.all, 'list'] as const,
  deliveries: (id: string) => [...webhookKeys.all, 'deliveries', id] as const,
};

interface Listed<T> {
  data: T[];
  totalCount: number;
}

const path = (id: string, tail = '') => `/webhook-subscriptions/${encodeURIComponent(id)}${tail}`;

/** GET /webhook-subscriptions (admins). */
export function useWebhookSubscriptions(enabled: boolean) {
  return useQuery({
    queryKey: webhookKeys.list(),
    queryFn: async ({ signal }) => (await api.get<Listed<WebhookSubscription>>('/webhook-subscriptions', { signal })).data,
    enabled,
  });
}

/** GET /webhook-subscriptions/{id}/deliveries (admins): the last 50, newest first. */
export function useWebhookDeliveries(id: string) {
  return useQuery({
    queryKey: webhookKeys.deliveries(id),
    queryFn: async ({ signal }) => (await api.get<Listed<WebhookDelivery>>(path(id, '/deliveries'), { signal })).data,
  });
}

function useWebhookMutation<I, O>(name: string, call: (input: I) => Promise<O>) {
  const client = useQueryClient();
  return useMutation({
    mutationKey: [...webhookKeys.all, name],
    mutationFn: call,
    onSuccess: () => client.invalidateQueries({ queryKey: webhookKeys.all }),
  });
}

/** POST /webhook-subscriptions: answers the secret, once. */
export const useCreateWebhook = () =>
  useWebhookMutation('create', (payload: WebhookSubscriptionPayload) => api.post<WebhookSubscriptionWithSecret>('/webhook-subscriptions', payload));

/** PUT /webhook-subscriptions/{id}. */
export const useUpdateWebhook = () =>
  useWebhookMutation('update', ({ id, payload }: { id: string; payload: WebhookSubscriptionPayload }) => api.put<WebhookSubscription>(path(id), payload));

/** DELETE /webhook-subscriptions/{id}. */
export const useDeleteWebhook = () => useWebhookMutation('delete', (id: string) => api.delete<void>(path(id)));

/** POST /webhook-subscriptions/{id}/rotate-secret: the new secret, once. */
export const useRotateWebhookSecret = () => useWebhookMutation('rotate', (id: string) => api.post<WebhookSubscriptionWithSecret>(path(id, '/rotate-secret')));

/** POST /webhook-subscriptions/{id}/enable ('Reativar'). */
export const useEnableWebhook = () => useWebhookMutation('enable', (id: string) => api.post<WebhookSubscription>(path(id, '/enable')));

/** POST /webhook-subscriptions/{id}/test ('Enviar evento de teste'): the delivery and its one attempt. */
export const useSendWebhookTest = () => useWebhookMutation('test', (id: string) => api.post<WebhookDelivery>(path(id, '/test')));
