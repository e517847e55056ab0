import { listWebhookSubscriptions } from '#domain/webhooks/subscriptions.ts';
import { api } from '#lib/api.ts';
import { ok } from '#lib/responses.ts';

export const handler = api({ auth: 'admin' }).handler(async ({ ports, session }) => {
  const data = await listWebhookSubscriptions(ports, session);
  return ok({ data, totalCount: data.length });
});
