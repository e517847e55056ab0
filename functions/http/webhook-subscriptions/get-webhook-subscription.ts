import { getWebhookSubscriptionOf } from '#domain/webhooks/subscriptions.ts';
import { api, idParam } from '#lib/api.ts';
import { ok } from '#lib/responses.ts';

export const handler = api({ auth: 'admin', params: idParam }).handler(async ({ ports, session, params }) =>
  ok(await getWebhookSubscriptionOf(ports, session, params.id)),
);
