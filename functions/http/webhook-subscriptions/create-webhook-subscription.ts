import { webhookSubscriptionPayload } from '#contracts/webhooks.ts';
import { createWebhookSubscription } from '#domain/webhooks/subscriptions.ts';
import { api } from '#lib/api.ts';
import { created } from '#lib/responses.ts';

/** Answers the subscription with its whole secret, the only time but a rotation that it is shown. */
export const handler = api({ auth: 'admin', body: webhookSubscriptionPayload }).handler(async ({ ports, session, body }) =>
  created(await createWebhookSubscription(ports, session, body)),
);
