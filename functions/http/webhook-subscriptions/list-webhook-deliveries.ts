import { listWebhookDeliveries } from '#domain/webhooks/deliver-webhooks.ts';
import { api, idParam } from '#lib/api.ts';
import { ok } from '#lib/responses.ts';

/** The subscription's last 50 deliveries, newest first, with every attempt's answer. */
export const handler = api({ auth: 'admin', params: idParam }).handler(async ({ ports, session, params }) => {
  const data = await listWebhookDeliveries(ports, session, params.id);
  return ok({ data, totalCount: data.length });
});
