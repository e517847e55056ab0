import { webhookSubscriptionPayload } from '#contracts/webhooks.ts';
import { updateWebhookSubscription } from '#domain/webhooks/subscriptions.ts';
import { api, idParam } from '#lib/api.ts';
import { ok } from '#lib/responses.ts';

export const handler = api({ auth: 'admin', params: idParam, body: webhookSubscriptionPayload }).handler(async ({ ports, session, params, body }) =>
  ok(await updateWebhookSubscription(ports, session, params.id, body)),
);
